import type { ServiceContext } from '../shared/context.ts';
import { periodOf } from '../shared/period.ts';
import { planTerms } from './plans.ts';

export interface ResetMonthlyCreditsOptions {
  /** The moment the reset is for; its calendar month (UTC) is the period refilled. */
  at: Date;
}

export interface ResetMonthlyCreditsResult {
  period: string;
  accountsReset: number;
}

const batchSize = 500;

/**
 * Refills the monthly buckets at the start of a calendar month (UTC): free monthly credits
 * to the account's allowance and subscription credits to the plan's allowance. Unused
 * monthly credits do not carry over. Each account is reset at most once per period, so a
 * retried or backfilled run changes nothing.
 */
export async function resetMonthlyCredits(ctx: ServiceContext, { at }: ResetMonthlyCreditsOptions): Promise<ResetMonthlyCreditsResult> {
  const period = periodOf(at);
  let accountsReset = 0;
  let after = '';
  for (;;) {
    const accounts = await ctx.db.account.findMany({
      where: { id: { gt: after }, createdAt: { lte: at } },
      orderBy: { id: 'asc' },
      take: batchSize,
      select: { id: true, plan: true, monthlyFreeCredits: true },
    });
    if (accounts.length === 0) break;
    after = accounts[accounts.length - 1]!.id;
    for (const account of accounts) {
      const reset = await ctx.db.$transaction(async (tx) => {
        const marked = await tx.creditPeriodReset.createMany({ data: [{ accountId: account.id, period }], skipDuplicates: true });
        if (marked.count === 0) return false;
        const refills = [
          { bucket: 'free_monthly' as const, balance: account.monthlyFreeCredits },
          { bucket: 'subscription' as const, balance: planTerms[account.plan].subscriptionCredits },
        ];
        for (const { bucket, balance } of refills) {
          const current = await tx.creditBalance.findUnique({ where: { accountId_bucket: { accountId: account.id, bucket } } });
          if (!current && balance === 0) continue;
          await tx.creditBalance.upsert({
            where: { accountId_bucket: { accountId: account.id, bucket } },
            create: { accountId: account.id, bucket, balance },
            update: { balance },
          });
          await tx.creditLedgerEntry.create({ data: { accountId: account.id, kind: 'reset', source: bucket, amount: balance } });
        }
        return true;
      });
      if (reset) accountsReset++;
    }
  }
  ctx.logger.info('monthly credits reset', { period, accountsReset });
  return { period, accountsReset };
}
