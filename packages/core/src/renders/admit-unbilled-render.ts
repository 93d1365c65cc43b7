// The admission rule of work the service renders for an account without a credit: a version
// comparison's two images and a dashboard or API adapt layout. Nothing pays for that work, so
// what bounds it is this rule, the same for every kind: the account's unbilled renders per
// minute and per day (429 rate_limited), no more than half the service backlog (503
// overloaded), and, for jobs through the render queue, the account's and key's live-job
// limits counted together with its billed renders (429 account_concurrency_limited,
// key_concurrency_limited). Admitted jobs are bulk work: they wait behind every customer's
// single render for a worker and a browser.
import type { Tx } from '@svc/db';
import { takeUnbilledRenderTokens, type UnbilledRenderBudget } from '../limits/unbilled-renders.ts';
import type { ServiceContext } from '../shared/context.ts';
import { lockAccountAdmissions, refuseWhenOverloaded } from './admit-render-job.ts';
import { liveCountsFor, liveJobs, liveLimitRefusal, refuseOverLiveLimits } from './render-job-store.ts';

/** Unbilled jobs an account holds live at once (a comparison renders its two images one after the other). */
export const unbilledConcurrency = 4;

/**
 * Before any work of the call: the account's unbilled renders (429), then room in half the
 * backlog (503), so unbilled work can never be what turns paying renders away.
 */
export async function takeUnbilledRenders(ctx: ServiceContext, budget: UnbilledRenderBudget): Promise<void> {
  await takeUnbilledRenderTokens(ctx, budget);
  await refuseWhenOverloaded(ctx, unbilledBacklog(ctx));
}

/** Unbilled jobs are refused once the queue holds half of SVC_MAX_RENDER_BACKLOG. */
export const unbilledBacklog = (ctx: ServiceContext) => Math.max(1, Math.floor(ctx.config.maxRenderBacklog / 2));

export interface AdmitUnbilledJobOptions {
  accountId: string;
  keyId: string | null;
}

/**
 * Inside the transaction that records an unbilled job for the queue, under the account's
 * admission lock: the backlog again (it may have filled since the call began), the live-job
 * limits shared with billed renders, and the account's own cap on live unbilled jobs.
 */
export async function admitUnbilledJob(ctx: ServiceContext, tx: Tx, options: AdmitUnbilledJobOptions): Promise<void> {
  await refuseWhenOverloaded(ctx, unbilledBacklog(ctx));
  await lockAccountAdmissions(tx, options.accountId);
  const live = await liveJobs(tx, options.accountId);
  refuseOverLiveLimits(liveCountsFor(live, options.keyId));
  if (live.unbilled >= unbilledConcurrency) throw liveLimitRefusal('account');
}
