import { type DbOrTx, Prisma } from '@svc/db';
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
  await db.$executeRaw`SELECT ${addJob(name, payload, options)}`;
}

/**
 * The queue call itself, as an SQL expression, for a statement that adds its task in the same
 * round trip as the write that asks for it (`SELECT ${addJob(...)} FROM created`).
 */
export function addJob<N extends TaskName>(name: N, payload: TaskPayload<N>, options: EnqueueOptions = {}): Prisma.Sql {
  const parsed = taskCatalog[name].payload.parse(payload);
  return addJobOf(name, Prisma.sql`${JSON.stringify(parsed)}::json`, options);
}

/**
 * As addJob, with the payload and job key computed by the statement itself (from a row it
 * writes); the caller answers for the payload's shape.
 */
export function addJobOf(name: TaskName, payload: Prisma.Sql, options: Omit<EnqueueOptions, 'jobKey'> & { jobKey?: string | Prisma.Sql } = {}): Prisma.Sql {
  return Prisma.sql`graphile_worker.add_job(
    ${name},
    ${payload},
    run_at => ${options.runAt ?? null}::timestamptz,
    max_attempts => ${taskCatalog[name].maxAttempts},
    job_key => ${options.jobKey ?? null},
    priority => ${options.priority ?? taskCatalog[name].priority}::int)`;
}
