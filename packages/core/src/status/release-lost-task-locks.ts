import { templateMessageTaskKey } from '../tasks/catalog.ts';
import type { ServiceContext } from '../shared/context.ts';
import { workerApplicationPrefix } from './record-worker-presence.ts';

/** A lock younger than this is left alone: its worker may not have reported its pool yet. */
export const lockSettleMs = 10_000;

/**
 * Releases the queue tasks that worker processes which no longer exist held locked. The queue
 * keeps a task locked by a worker that died (killed, lost its machine) for hours; a task it had
 * taken but not yet started (a render not yet claimed, a group drain, a webhook attempt) would
 * wait that long. A worker is gone when the database holds no session under its application
 * name (see workerApplicationName); its tasks go back to the queue, and each task's own
 * claim (a render's lease, a delivery's state) decides what is left to do. An AI message runs
 * in the task that holds it, so the lease of a message whose task a lost worker held ends
 * with the release: the task takes the message up at once, not when the lease would have run
 * out (a model call's tries and waits, a minute or more).
 * Returns the pools released.
 */
export async function releaseLostTaskLocks(ctx: ServiceContext): Promise<string[]> {
  const lockedBefore = new Date(ctx.clock().getTime() - lockSettleMs);
  const pools = await ctx.db.$queryRaw<{ pool_id: string }[]>`
    SELECT DISTINCT p.pool_id FROM worker_instances w CROSS JOIN LATERAL unnest(w.queue_pool_ids) AS p(pool_id)
     WHERE EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.locked_by = p.pool_id AND j.locked_at < ${lockedBefore})
       AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = ${workerApplicationPrefix} || w.id)
     ORDER BY p.pool_id`;
  const ids = pools.map((pool) => pool.pool_id);
  if (ids.length === 0) return ids;
  const now = ctx.clock();
  await ctx.db.$executeRaw`
    UPDATE template_messages SET lease_expires_at = ${now}
     WHERE state IN ('running', 'previewing') AND lease_expires_at > ${now}
       AND ${templateMessageTaskKey('')}::text || id IN (
         SELECT key FROM graphile_worker.jobs WHERE task_identifier = 'template_message' AND locked_by = ANY(${ids}::text[]))`;
  await ctx.db.$executeRaw`SELECT graphile_worker.force_unlock_workers(${ids}::text[])`;
  ctx.logger.warn('tasks of lost workers released', { pools: ids.length });
  return ids;
}
