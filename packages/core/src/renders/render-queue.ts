// The render queue: jobs waiting for a worker, claimed by workers themselves. Admission writes a
// queue entry in the statement that records the job, and the NOTIFY that wakes workers goes out
// when that commits; a worker claims with one statement that takes the oldest entry no other
// worker is taking (FOR UPDATE SKIP LOCKED) and moves its job to running under a lease.
import type { RenderOptions, RenderProvenance } from '@svc/contracts';
import { commitWithoutFlush, type DbOrTx, Prisma, queryRows } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';

/** The channel workers listen on; the payload names the slots the job is for: 'single' or 'bulk'. */
export const renderQueuedChannel = 'render_queued';

/**
 * A common table expression, `queued`, that queues the jobs of `jobs` (a relation with an id
 * column) and wakes the workers when the statement's transaction commits: the NOTIFY is in the
 * insert's RETURNING, so it goes out whether or not the statement reads `queued` (PostgreSQL
 * sends one of identical notices of a transaction).
 */
export function renderQueueEntries(jobs: Prisma.Sql, bulk: boolean): Prisma.Sql {
  return Prisma.sql`
    queued AS (
      INSERT INTO render_queue (job_id, bulk) SELECT id, ${bulk}::boolean FROM ${jobs}
      ON CONFLICT (job_id) DO NOTHING
      RETURNING job_id, pg_notify(${renderQueuedChannel}, ${bulk ? 'bulk' : 'single'}))`;
}

/** Whether a job waits in the queue's bulk side: a group member, or unbilled work (credit none), goes behind every single render. */
export const isBulkWork = (job: { groupId: string | null; credit: string }) => job.groupId !== null || job.credit === 'none';

/** Queues one job again (recovery of a job whose worker vanished; a group member's or unbilled work as bulk work). */
export async function queueRender(db: DbOrTx, jobId: string, options: { bulk: boolean }): Promise<void> {
  await db.$queryRaw`
    WITH job AS (SELECT ${jobId}::text AS id), ${renderQueueEntries(Prisma.sql`job`, options.bulk)}
    SELECT count(*)::int AS queued FROM queued`;
}

export interface ClaimedJob {
  id: string;
  accountId: string;
  /** a group member or unbilled work (credit none): bulk work */
  bulk: boolean;
  /** this claim's number, which fences the finish */
  attempts: number;
  options: RenderOptions;
  /** null if the job has no input (never expected: the input goes only when the job ends) */
  html: string | null;
  /** the saved-template version rendered, or null */
  template: { id: string; version: number } | null;
  /** the keyed hash of a template render's canonical data (render-spec.ts dataHash), or null */
  dataSha256: string | null;
}

interface ClaimRow {
  id: string;
  account_id: string;
  attempts: number;
  options: RenderOptions;
  html: string | null;
  bulk: boolean;
  template_id: string | null;
  template_version: number | null;
  data_sha256: string | null;
}

const claimedJob = (row: ClaimRow): ClaimedJob => ({
  id: row.id,
  accountId: row.account_id,
  bulk: row.bulk,
  attempts: row.attempts,
  options: row.options,
  html: row.html,
  template: row.template_id !== null && row.template_version !== null ? { id: row.template_id, version: row.template_version } : null,
  dataSha256: row.data_sha256,
});

/**
 * The claim of the job taken by `taken` (a relation with a job_id column): queued, or running
 * under a lease that ran out (its worker vanished). The input is read in the same statement.
 */
function claimOf(ctx: ServiceContext, taken: Prisma.Sql): Prisma.Sql {
  const now = ctx.clock();
  const leaseUntil = new Date(now.getTime() + ctx.config.renderLeaseMs);
  return Prisma.sql`
    UPDATE render_jobs j SET status = 'running', attempts = attempts + 1, lease_expires_at = ${leaseUntil},
           started_at = COALESCE(started_at, ${now})
      FROM ${taken} t
     WHERE j.id = t.job_id AND (j.status = 'queued' OR (j.status = 'running' AND j.lease_expires_at < ${now}))
    RETURNING j.id, j.account_id, j.attempts, j.options, j.template_id, j.template_version, j.data_sha256, (SELECT i.html FROM render_inputs i WHERE i.job_id = j.id) AS html,
              (j.group_id IS NOT NULL OR j.credit = 'none') AS bulk`;
}

/** Takes one job by id (a second delivery, or another worker, finds nothing to do). */
export async function claimRender(ctx: ServiceContext, jobId: string): Promise<ClaimedJob | null> {
  const rows = await ctx.db.$queryRaw<ClaimRow[]>`
    WITH taken AS (DELETE FROM render_queue WHERE job_id = ${jobId} RETURNING job_id),
         job AS (SELECT ${jobId}::text AS job_id)
    ${claimOf(ctx, Prisma.sql`job`)}`;
  return rows[0] ? claimedJob(rows[0]) : null;
}

/** One claim from the queue: the job (null when the entry's job could not be claimed) and whether more entries were due. */
export interface RenderClaim {
  job: ClaimedJob | null;
  /** Another entry of the same slots was due when this one was taken: claiming again may find it. */
  moreDue: boolean;
}

/**
 * Takes the oldest due entry of the single or the bulk queue that no other worker is taking,
 * and claims its job, in one statement: 'empty' when nothing is due; the claim's job is null
 * when the entry's job could not be claimed (it ended meanwhile, or another worker's lease on
 * it still holds). The statement also tells whether another entry was due, so slots that took
 * the last one do not ask again only to find the queue empty (a new entry's NOTIFY wakes them).
 */
export async function claimNextRender(ctx: ServiceContext, options: { bulk: boolean }): Promise<RenderClaim | 'empty'> {
  // committed without waiting for the disk: a claim a database crash undoes leaves the job
  // queued for the next claim, and this worker's finish, fenced by the claim, then changes nothing
  const rows = await queryRows<Partial<ClaimRow> & { taken: string; more_due: boolean }>(
    ctx.db,
    Prisma.sql`
    WITH taken AS (
      DELETE FROM render_queue WHERE seq = (
        SELECT seq FROM render_queue WHERE bulk = ${options.bulk} AND run_at <= now()
         ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING job_id),
    claimed AS (${claimOf(ctx, Prisma.sql`taken`)})
    SELECT taken.job_id AS taken, claimed.*,
           EXISTS (SELECT 1 FROM render_queue q WHERE q.bulk = ${options.bulk} AND q.run_at <= now() AND q.job_id <> taken.job_id) AS more_due,
           ${commitWithoutFlush} AS unflushed
      FROM taken LEFT JOIN claimed ON claimed.id = taken.job_id`,
  );
  const row = rows[0];
  if (!row) return 'empty';
  return { job: row.id ? claimedJob(row as ClaimRow) : null, moreDue: row.more_due };
}

/**
 * Gives a claimed job back to the queue (fenced by its claim): at shutdown past the bound, or
 * after an error outside the render itself (storage, database), then after `delayMs`. The claim
 * counted as an attempt, so a job that keeps failing this way ends failed. Due times are the
 * database's (entries are due at the database's now()), so every worker agrees on them.
 */
export async function handBackRender(ctx: ServiceContext, job: ClaimedJob, delayMs: number): Promise<void> {
  await ctx.db.$executeRaw`
    WITH job AS (
      UPDATE render_jobs SET status = 'queued', lease_expires_at = NULL
       WHERE id = ${job.id} AND status = 'running' AND attempts = ${job.attempts}
      RETURNING id),
    queued AS (
      INSERT INTO render_queue (job_id, bulk, run_at) SELECT id, ${job.bulk}::boolean, now() + make_interval(secs => ${delayMs / 1000}::float8) FROM job
      ON CONFLICT (job_id) DO UPDATE SET run_at = EXCLUDED.run_at
      RETURNING job_id)
    SELECT pg_notify(${renderQueuedChannel}, ${job.bulk ? 'bulk' : 'single'}) FROM queued`;
}

/** What the rendered file records about its origin (docs/decisions/renders.md, Provenance). */
export function provenanceOf(job: ClaimedJob): RenderProvenance {
  return {
    job_id: job.id,
    ...(job.template ? { template: job.template } : {}),
    ...(job.dataSha256 !== null ? { data_sha256: job.dataSha256 } : {}),
  };
}
