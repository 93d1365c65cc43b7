// Template evaluation is work done for an account before anything else bounds it: a render,
// batch row, preview, comparison or new version evaluates its source in the sandbox (up to about
// a second each) before a render token or a credit is spent, and a failed evaluation spends
// neither. So evaluation has a budget of its own per account, in seconds of sandbox work
// (rate-limit.ts, template_evaluation): a little is taken before each evaluation, which is
// refused with 429 rate_limited once the account's seconds are spent, and the time a sandbox
// worker actually spent is charged after it, whether the evaluation succeeded or failed.
import { spendRateAmount, takeRateAmount } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';

/** The account an evaluation is done for, and where its budget is kept. */
export interface EvaluationAccount {
  ctx: ServiceContext;
  accountId: string;
}

/** What the sandbox needs to know of the account: whose turn, and where to report the time spent. */
export interface EvaluationTenancy {
  tenant: string;
  onWork: (ms: number) => void;
}

/** Seconds taken before an evaluation: an account with less than this left is refused. */
const upfrontSeconds = 0.05;

/**
 * Runs `evaluate` within the account's evaluation budget: 429 rate_limited when it is spent.
 * With `refuse` false (routes whose contract has no 429: saving a template checks its syntax)
 * the work is only charged, and the account's next metered evaluations pay for it.
 */
export async function meteredEvaluation<T>(
  account: EvaluationAccount,
  evaluate: (tenancy: EvaluationTenancy) => Promise<T>,
  { refuse = true }: { refuse?: boolean } = {},
): Promise<T> {
  const { ctx, accountId } = account;
  const taken = refuse ? upfrontSeconds : 0;
  if (refuse) await takeRateAmount(ctx.db, 'template_evaluation', accountId, ctx.clock(), taken);
  let spentMs = 0;
  try {
    return await evaluate({ tenant: accountId, onWork: (ms) => (spentMs += ms) });
  } finally {
    await spendRateAmount(ctx.db, 'template_evaluation', accountId, ctx.clock(), spentMs / 1000 - taken);
  }
}
