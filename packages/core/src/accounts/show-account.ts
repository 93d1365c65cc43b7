import type { CreditBucket, Plan } from '@svc/db';
import { creditBuckets } from '../credits/plans.ts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { periodOf } from '../shared/period.ts';

export interface AccountSummary {
  id: string;
  plan: Plan;
  status: 'active' | 'suspended';
  /** The proven email address, or null. */
  email: string | null;
  createdAt: Date;
  suspendedAt: Date | null;
  balances: Record<CreditBucket, number>;
  /** Credits held for jobs still queued or running. */
  reserved: number;
  /** Overage credits used this calendar month (UTC), all keys together. */
  overageThisMonth: number;
}

export async function showAccount(ctx: ServiceContext, accountId: string): Promise<AccountSummary> {
  const [summary] = await showAccounts(ctx, [accountId]);
  if (!summary) throw notFound();
  return summary;
}

/**
 * The summaries of several accounts in four queries whatever their number (the operator API
 * batches a page of accounts through it); ids without an account are left out.
 */
export async function showAccounts(ctx: ServiceContext, accountIds: readonly string[]): Promise<AccountSummary[]> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return [];
  const [accounts, balanceRows, reserved, overage] = await Promise.all([
    ctx.db.account.findMany({ where: { id: { in: ids } } }),
    ctx.db.creditBalance.findMany({ where: { accountId: { in: ids } } }),
    ctx.db.creditReservation.groupBy({ by: ['accountId'], where: { accountId: { in: ids }, state: 'reserved' }, _sum: { amount: true } }),
    ctx.db.overageUsage.groupBy({ by: ['accountId'], where: { accountId: { in: ids }, period: periodOf(ctx.clock()) }, _sum: { used: true } }),
  ]);
  const reservedOf = new Map(reserved.map((row) => [row.accountId, row._sum.amount ?? 0]));
  const overageOf = new Map(overage.map((row) => [row.accountId, row._sum.used ?? 0]));
  return accounts.map((account) => {
    const balances = Object.fromEntries(creditBuckets.map((bucket) => [bucket, 0])) as Record<CreditBucket, number>;
    for (const row of balanceRows) if (row.accountId === account.id) balances[row.bucket] = row.balance;
    return {
      id: account.id,
      plan: account.plan,
      status: account.status,
      email: account.email,
      createdAt: account.createdAt,
      suspendedAt: account.suspendedAt,
      balances,
      reserved: reservedOf.get(account.id) ?? 0,
      overageThisMonth: overageOf.get(account.id) ?? 0,
    };
  });
}
