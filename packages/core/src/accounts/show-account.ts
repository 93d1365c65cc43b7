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
  balances: Record<CreditBucket, number>;
  /** Credits held for jobs still queued or running. */
  reserved: number;
  /** Overage credits used this calendar month (UTC), all keys together. */
  overageThisMonth: number;
}

export async function showAccount(ctx: ServiceContext, accountId: string): Promise<AccountSummary> {
  const account = await ctx.db.account.findUnique({ where: { id: accountId }, include: { balances: true } });
  if (!account) throw notFound();
  const balances = Object.fromEntries(creditBuckets.map((bucket) => [bucket, 0])) as Record<CreditBucket, number>;
  for (const row of account.balances) balances[row.bucket] = row.balance;
  const [reserved, overage] = await Promise.all([
    ctx.db.creditReservation.aggregate({ where: { accountId, state: 'reserved' }, _sum: { amount: true } }),
    ctx.db.overageUsage.aggregate({ where: { accountId, period: periodOf(ctx.clock()) }, _sum: { used: true } }),
  ]);
  return {
    id: account.id,
    plan: account.plan,
    status: account.status,
    email: account.email,
    createdAt: account.createdAt,
    balances,
    reserved: reserved._sum.amount ?? 0,
    overageThisMonth: overage._sum.used ?? 0,
  };
}
