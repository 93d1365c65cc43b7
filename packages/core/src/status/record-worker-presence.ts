import type { ServiceContext } from '../shared/context.ts';
import { newId } from '../shared/ids.ts';

/** Rows of workers not seen for this long are dropped. */
const forgetAfterMs = 7 * 86_400_000;

export interface WorkerPresence {
  /** This process's row, made at start. */
  instanceId: string;
  startedAt: Date;
  /** The queue pools this process locks tasks with, as its queue runners make them. */
  queuePoolIds: string[];
}

export function newWorkerPresence(ctx: ServiceContext): WorkerPresence {
  return { instanceId: newId('wrk_'), startedAt: ctx.clock(), queuePoolIds: [] };
}

/**
 * The application_name a worker process's queue connections carry. While the process lives,
 * its queue holds a connection open (the one it listens for new tasks on); when it dies, the
 * database drops its connections, so no session with this name is left.
 */
export function workerApplicationName(presence: WorkerPresence): string {
  return `${workerApplicationPrefix}${presence.instanceId}`;
}

export const workerApplicationPrefix = 'svc-worker ';

/**
 * Reports that this worker process is alive, the queue pools it locks tasks with, and how many
 * browsers it has launched since it started (the operator status counts workers seen and
 * browser restarts from these rows).
 */
export async function recordWorkerPresence(ctx: ServiceContext, presence: WorkerPresence, browserLaunches: number): Promise<void> {
  const now = ctx.clock();
  await ctx.db.$executeRaw`
    INSERT INTO worker_instances (id, started_at, last_seen_at, browser_launches, queue_pool_ids)
    VALUES (${presence.instanceId}, ${presence.startedAt}, ${now}, ${browserLaunches}, ${presence.queuePoolIds}::text[])
    ON CONFLICT (id) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at, browser_launches = EXCLUDED.browser_launches,
                                   queue_pool_ids = ARRAY(SELECT DISTINCT unnest(worker_instances.queue_pool_ids || EXCLUDED.queue_pool_ids))`;
  await ctx.db.$executeRaw`DELETE FROM worker_instances WHERE last_seen_at < ${new Date(now.getTime() - forgetAfterMs)}`;
}
