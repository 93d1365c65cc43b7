import type { Tx } from '@svc/db';
import type { ServiceMetrics } from '../ports/metrics.ts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { finishRender } from '../renders/finish-render.ts';
import { loadRenderGroup, type RenderGroupView } from './get-render-group.ts';
import { lockAccountAdmissions } from '../renders/admit-render-job.ts';

export interface CancelBatchOptions {
  accountId: string;
  batchId: string;
}

/**
 * Batch cancel (the contract's group lifecycle): rows with no job are cancelled, queued jobs are cancelled (credit
 * released, render.cancelled recorded), running jobs finish, succeeded files stay. The queued
 * jobs are locked first, so a worker cannot claim one between the read and the cancel.
 * Repeating is safe.
 */
export async function cancelBatch(ctx: ServiceContext, { accountId, batchId }: CancelBatchOptions): Promise<RenderGroupView> {
  const owned = await ctx.db.renderGroup.findFirst({ where: { id: batchId, accountId, kind: 'batch' }, select: { id: true } });
  if (!owned) throw notFound();
  const now = ctx.clock();
  await ctx.db.$transaction(async (tx) => {
    await lockAccountAdmissions(tx, accountId);
    await cancelBatchRows(tx, batchId, now, ctx.metrics);
  });
  const view = await loadRenderGroup(ctx.db, batchId);
  if (!view) throw notFound();
  return view;
}

/** The cancel itself, inside a transaction that holds the account row lock. */
export async function cancelBatchRows(tx: Tx, batchId: string, now: Date, metrics: ServiceMetrics): Promise<void> {
  await tx.$executeRaw`UPDATE render_groups SET cancelled_at = COALESCE(cancelled_at, ${now}) WHERE id = ${batchId}`;
  await tx.$executeRaw`UPDATE render_group_members SET state = 'cancelled' WHERE group_id = ${batchId} AND state = 'pending'`;
  const queued = await tx.$queryRaw<{ id: string }[]>`
    SELECT j.id FROM render_jobs j JOIN render_group_members m ON m.job_id = j.id
     WHERE m.group_id = ${batchId} AND j.status = 'queued' ORDER BY m.position FOR UPDATE OF j`;
  for (const job of queued) await finishRender(tx, { jobId: job.id, attempt: null, outcome: { status: 'cancelled' }, now, metrics });
}
