import type { DbOrTx } from '@svc/db';
import { type TaskName, type TaskPayload, taskCatalog } from './catalog.ts';

export interface EnqueueOptions {
  runAt?: Date;
  /** A job key replaces an earlier pending job with the same key (graphile-worker semantics). */
  jobKey?: string;
  /** Overrides the catalog's priority for this job (smaller runs first; see taskPriority). */
  priority?: number;
}

/**
 * Adds a task to the queue through the given client; called with a transaction, the job
 * exists exactly when the domain write that asked for it commits.
 */
export async function enqueue<N extends TaskName>(db: DbOrTx, name: N, payload: TaskPayload<N>, options: EnqueueOptions = {}): Promise<void> {
  const parsed = taskCatalog[name].payload.parse(payload);
  await db.$executeRaw`SELECT graphile_worker.add_job(
    ${name},
    ${JSON.stringify(parsed)}::json,
    run_at => ${options.runAt ?? null}::timestamptz,
    max_attempts => ${taskCatalog[name].maxAttempts},
    job_key => ${options.jobKey ?? null},
    priority => ${options.priority ?? taskCatalog[name].priority}::int)`;
}
