import { adaptErrorCodes } from '@svc/contracts';
import type { GroupKind } from '@svc/db';
import { type Principal, principalSubject } from '../auth/principal.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { admitPendingMembers } from './admit-members.ts';
import { loadRenderGroup, type RenderGroupView } from './get-render-group.ts';
import { lockAccountAdmissions } from '../renders/admit-render-job.ts';
import { liveCountsFor, liveJobs, refuseOverLiveLimits } from '../renders/render-job-store.ts';

export interface RetryRenderGroupOptions {
  principal: Principal;
  kind: GroupKind;
  groupId: string;
}

/** A member failed by adapting (deterministic): retrying it would fail the same way, so it stays failed. */
const permanent = new Set<string>(adaptErrorCodes);

/**
 * Retry (the contract's group lifecycle): each member whose last attempt failed (batches: or was cancelled), or that
 * ended without a job, waits again as pending and is admitted with the still-pending ones as
 * concurrency allows; queued, running and succeeded members are untouched, so a succeeded
 * member is never billed again. Takes a render creation token (429 rate_limited); with
 * something to retry and no room at all, 429 account or key concurrency and nothing changes.
 * Runs under the account row lock, so a retry racing running members or another retry admits
 * each member once.
 */
export async function retryRenderGroup(ctx: ServiceContext, { principal, kind, groupId }: RetryRenderGroupOptions): Promise<RenderGroupView> {
  const owned = await ctx.db.renderGroup.findFirst({ where: { id: groupId, accountId: principal.accountId, kind }, select: { id: true, keyId: true } });
  if (!owned) throw notFound();
  const now = ctx.clock();
  await takeRateToken(ctx.db, 'render_creation', principalSubject(principal), now);
  await ctx.db.$transaction(async (tx) => {
    await lockAccountAdmissions(tx, principal.accountId);
    const retryable = kind === 'batch' ? (['failed', 'cancelled'] as const) : (['failed'] as const);
    const endedWithoutJob = await tx.renderGroupMember.findMany({
      where: { groupId, state: { in: [...retryable] }, OR: [{ errorCode: null }, { errorCode: { notIn: [...permanent] } }] },
      select: { position: true },
    });
    const endedJobs = await tx.renderGroupMember.findMany({
      where: { groupId, state: 'admitted', job: { status: { in: [...retryable] } } },
      select: { position: true },
    });
    const positions = [...endedWithoutJob, ...endedJobs].map((member) => member.position);
    const pending = await tx.renderGroupMember.count({ where: { groupId, state: 'pending' } });
    if (positions.length + pending === 0) return;
    refuseOverLiveLimits(liveCountsFor(await liveJobs(tx, principal.accountId), owned.keyId));
    // earlier attempts stay readable as jobs of their own; the member points at its next one
    await tx.renderGroupMember.updateMany({ where: { groupId, position: { in: positions } }, data: { state: 'pending', jobId: null, errorCode: null } });
    await tx.renderGroup.update({ where: { id: groupId }, data: { cancelledAt: null } });
    await admitPendingMembers(tx, { accountId: principal.accountId, now, groupConcurrency: ctx.config.groupConcurrency, metrics: ctx.metrics });
  });
  const view = await loadRenderGroup(ctx.db, groupId);
  if (!view) throw notFound();
  return view;
}
