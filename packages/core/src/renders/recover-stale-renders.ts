import { enqueue } from '../jobs/enqueue.ts';
import type { ServiceContext } from '../shared/context.ts';

/**
 * Takes up jobs whose worker vanished mid-render (its lease ran out): each is queued
 * again under its own job key, and the claim in runRenderJob decides who renders it.
 * A job past its attempts is failed there, releasing its credit.
 */
export async function recoverStaleRenders(ctx: ServiceContext): Promise<number> {
  const stale = await ctx.db.renderJob.findMany({
    where: { status: 'running', leaseExpiresAt: { lt: ctx.clock() } },
    select: { id: true, groupId: true },
    take: 500,
  });
  for (const job of stale) {
    // a group member goes back to the bulk runner
    await enqueue(ctx.db, job.groupId ? 'render_group_member' : 'render_job', { job_id: job.id }, { jobKey: `render:${job.id}` });
  }
  if (stale.length > 0) ctx.logger.warn('renders taken up again after a lost worker', { count: stale.length });
  return stale.length;
}
