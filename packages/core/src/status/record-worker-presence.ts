import type { ServiceContext } from '../shared/context.ts';
import { newId } from '../shared/ids.ts';

/** Rows of workers not seen for this long are dropped. */
const forgetAfterMs = 7 * 86_400_000;

export interface WorkerPresence {
  /** This process's row, made at start. */
  instanceId: string;
  startedAt: Date;
}

export function newWorkerPresence(ctx: ServiceContext): WorkerPresence {
  return { instanceId: newId('wrk_'), startedAt: ctx.clock() };
}

/**
 * Reports that this worker process is alive and how many browsers it has launched since it
 * started (the operator status counts workers seen and browser restarts from these rows).
 */
export async function recordWorkerPresence(ctx: ServiceContext, presence: WorkerPresence, browserLaunches: number): Promise<void> {
  const now = ctx.clock();
  await ctx.db.$executeRaw`
    INSERT INTO worker_instances (id, started_at, last_seen_at, browser_launches)
    VALUES (${presence.instanceId}, ${presence.startedAt}, ${now}, ${browserLaunches})
    ON CONFLICT (id) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at, browser_launches = EXCLUDED.browser_launches`;
  await ctx.db.$executeRaw`DELETE FROM worker_instances WHERE last_seen_at < ${new Date(now.getTime() - forgetAfterMs)}`;
}
