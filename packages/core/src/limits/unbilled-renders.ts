import type { ServiceContext } from '../shared/context.ts';
import { spendRateAmount, takeRateAmount } from './rate-limit.ts';

export interface UnbilledRenderBudget {
  accountId: string;
  /** renders the call will make (a comparison two); all are taken at once, or none */
  renders: number;
}

/**
 * The account's unbilled renders: eight at once then one every two seconds, and two thousand a
 * day (429 rate_limited with the wait for whichever ran out). Without the day's bound an account
 * holding two credits could have a comparison's two free images every four seconds, all day.
 */
export async function takeUnbilledRenderTokens(ctx: ServiceContext, budget: UnbilledRenderBudget): Promise<void> {
  const now = ctx.clock();
  await takeRateAmount(ctx.db, 'unbilled_render', budget.accountId, now, budget.renders);
  try {
    await takeRateAmount(ctx.db, 'unbilled_render_daily', budget.accountId, now, budget.renders);
  } catch (refused) {
    // a refused call takes nothing from either bucket
    await spendRateAmount(ctx.db, 'unbilled_render', budget.accountId, now, -budget.renders);
    throw refused;
  }
}
