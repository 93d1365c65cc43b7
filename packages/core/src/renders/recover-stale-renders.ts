import { isBulkWork, queueRender } from './render-queue.ts';
import type { ServiceContext } from '../shared/context.ts';

/**
 * Takes up jobs whose worker vanished mid-render (its lease ran out): each is queued again
 * (a group member or unbilled work as bulk work), and the claim decides who renders it. A job past its
 * attempts is failed there, releasing its credit.
 */
export async function recoverStaleRenders(ctx: ServiceContext): Promise<number> {
  const stale = await ctx.db.renderJob.findMany({
    where: { status: 'running', leaseExpiresAt: { lt: ctx.clock() } },
    select: { id: true, groupId: true, credit: true },
    take: 500,
  });
  for (const job of stale) await queueRender(ctx.db, job.id, { bulk: isBulkWork(job) });
  if (stale.length > 0) ctx.logger.warn('renders taken up again after a lost worker', { count: stale.length });
  return stale.length;
}
