// Template evaluation is work done for an account before anything else bounds it: a render,
// batch row, preview, comparison or new version evaluates its source in the sandbox (up to about
// a second each) before a render token or a credit is spent, and a failed evaluation spends
// neither. So evaluation has a budget of its own per account, in seconds of sandbox work
// (rate-limit.ts, template_evaluation): a fifth of a second is taken before each evaluation,
// refused with 429 rate_limited when the account has not that much left, and when it ends the
// time a sandbox worker actually spent is charged instead, whether the evaluation succeeded or
// failed (the budget may run into a debt of its size, which later evaluations wait out). An
// evaluation refused as overloaded (the machine too busy to give it its CPU time) was not the
// account's doing and costs it nothing: what was taken for it is given back. The sandbox pool
// serves accounts in turns and never gives one account every worker, so what an account has in
// flight delays only its own work.
import { TemplateOverloadedError } from '@svc/templating';
import { spendRateAmount, takeRateAmount } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';

/** The account an evaluation is done for, and where its budget is kept. */
export interface EvaluationAccount {
  ctx: ServiceContext;
  accountId: string;
}

/**
 * What the sandbox needs to know of the account: whose turn, where to report the time spent,
 * and the wall time after which an evaluation still under its CPU time is refused as
 * overloaded (the service's templateOverloadMs).
 */
export interface EvaluationTenancy {
  tenant: string;
  onWork: (ms: number) => void;
  overloadWallMs?: number;
}

/**
 * Seconds taken before an evaluation: the render burst (twenty-one at once) fits in a full budget
 * with room to spare, and so do twenty group creates at once, each of which takes it once for
 * all its rows (evaluateSource with a caller's tenancy).
 */
const upfrontSeconds = 0.2;

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
  if (refuse) await takeHeld(account.ctx, account.accountId);
  return charged(account, refuse ? upfrontSeconds : 0, evaluate);
}

/**
 * Runs `evaluate` only when the account's budget holds what meteredEvaluation takes before an
 * evaluation, and charges it the same way; otherwise answers `skipped` at once, without
 * evaluating, pausing or refusing: for checks that a route whose contract has no 429 can go
 * without (the syntax of a saved size's source, which its renders check again).
 */
export async function evaluationWithinBudget<T>(account: EvaluationAccount, evaluate: (tenancy: EvaluationTenancy) => Promise<T>): Promise<T | 'skipped'> {
  const { ctx, accountId } = account;
  const now = ctx.clock();
  const until = refusedUntil.get(accountId);
  if (until !== undefined && until > now.getTime()) {
    countBudgetRefusal(ctx);
    return 'skipped';
  }
  try {
    await takeRateAmount(ctx.db, 'template_evaluation', accountId, now, upfrontSeconds);
  } catch (error) {
    if (!(error instanceof DomainError) || error.retryAfterSeconds === undefined) throw error;
    rememberRefusal(accountId, now.getTime() + error.retryAfterSeconds * 1000);
    countBudgetRefusal(ctx);
    return 'skipped';
  }
  return charged(account, upfrontSeconds, evaluate);
}

/**
 * Runs the evaluation and charges the budget the time a sandbox worker spent on it, less what
 * was taken before; refused as overloaded, it gives back all that was taken.
 */
async function charged<T>({ ctx, accountId }: EvaluationAccount, taken: number, evaluate: (tenancy: EvaluationTenancy) => Promise<T>): Promise<T> {
  let spentMs = 0;
  let overloaded = false;
  try {
    return await evaluate({ tenant: accountId, onWork: (ms) => (spentMs += ms), overloadWallMs: ctx.config.templateOverloadMs });
  } catch (error) {
    overloaded = isOverloaded(error);
    throw error;
  } finally {
    await spendRateAmount(ctx.db, 'template_evaluation', accountId, ctx.clock(), overloaded ? -taken : spentMs / 1000 - taken);
  }
}

/** The sandbox's overloaded refusal, or the 503 it became (evaluateSource, a schema's check). */
const isOverloaded = (error: unknown) => error instanceof TemplateOverloadedError || (error instanceof DomainError && error.code === 'overloaded');

/**
 * Accounts refused lately, until when: while an account floods with evaluations it cannot pay
 * for, its refusals are answered from this process's memory instead of the database, so the
 * flood costs the service next to nothing. Refunds of evaluations still in flight may make
 * room a little sooner; the account then waits its Retry-After, as it was told.
 */
const refusedUntil = new Map<string, number>();

/**
 * A refusal answers after this pause: a client that loops without waiting its Retry-After gets
 * its answers no faster than one that waits, so twenty such loops hold twenty idle connections
 * instead of the web process's whole event loop.
 */
const refusalPauseMs = 1_000;

async function takeHeld(ctx: ServiceContext, accountId: string): Promise<void> {
  const now = ctx.clock();
  const until = refusedUntil.get(accountId);
  if (until !== undefined && until > now.getTime()) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(refusalPauseMs, until - now.getTime())));
    countBudgetRefusal(ctx);
    throw new DomainError('rate_limited', { retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) });
  }
  refusedUntil.delete(accountId);
  try {
    await takeRateAmount(ctx.db, 'template_evaluation', accountId, now, upfrontSeconds);
  } catch (error) {
    const waitMs = error instanceof DomainError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : null;
    if (waitMs !== null) {
      rememberRefusal(accountId, now.getTime() + waitMs);
      await new Promise((resolve) => setTimeout(resolve, Math.min(refusalPauseMs, waitMs)));
      countBudgetRefusal(ctx);
    }
    throw error;
  }
}

function rememberRefusal(accountId: string, until: number): void {
  // entries end with their wait; the map holds only accounts refused in the last minute
  if (refusedUntil.size > 10_000) refusedUntil.clear();
  refusedUntil.set(accountId, until);
}

const countBudgetRefusal = (ctx: ServiceContext) => ctx.metrics.templateEvaluationRefusals.inc({ reason: 'evaluation_budget' });
