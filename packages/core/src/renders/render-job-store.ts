// The render job store: how a job is recorded (a single render, a group member, a preview),
// which jobs are live and how many an account and a key may hold, and the job as a record,
// read from its row or carried by the notice its finish sends. Every statement that makes a
// render job takes its rows from renderJobRecording; every live-job count reads liveJobsOf.
import { type DbOrTx, Prisma, queryRows } from '@svc/db';
import { renderFinishedChannel } from '../ports/completion-waiter.ts';
import { DomainError } from '../shared/errors.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { isBulkWork, renderQueueEntries } from './render-queue.ts';
import type { RenderKind } from './render-spec.ts';

/** The columns of a job's input: the evaluated html, its options, the assets it references and its data's keyed hash. */
export interface RenderJobInput {
  html: string;
  /** Effective render options, as the renderer receives them. */
  options: unknown;
  /** Assets the html references, captured with the job. */
  assetIds: string[];
  /** The keyed hash of a template render's canonical data (render-spec.ts dataHash), for the file's provenance. */
  dataSha256: string | null;
}

/** A render job to record. */
export interface NewRenderJob {
  id: string;
  accountId: string;
  /** The key the job counts against (concurrency, overage); null counts the account's keyless work. */
  keyId: string | null;
  kind: RenderKind;
  /** Work nothing pays for (previews, comparisons): credit none, and bulk work in the queue. */
  unbilled?: boolean;
  reference?: string | null;
  filename: string;
  template: { id: string; version: number } | null;
  /** The input as values, or a query that reads one row of html, options, asset_ids and data_sha256 (a group member's, kept in PostgreSQL). */
  input: RenderJobInput | Prisma.Sql;
  /** The batch, carousel or image pack the job renders a member of (bulk work in the queue). */
  groupId?: string | null;
  /** The failed job an operator's retry is made from. */
  retryOf?: string | null;
  /** Set for a job that never shows in history (a version comparison's image). */
  hiddenAt?: Date | null;
  /** False for a job its caller renders itself (a preview in a process with a browser); default true. */
  queued?: boolean;
  now: Date;
}

/**
 * Common table expressions that record `job` once for each row of `source` (at most one; a
 * relation of the statement that decides whether the job is admitted): the job, its input, its
 * captured assets and its queue entry, which wakes the workers when the statement commits.
 * Assets are immutable, so capturing the ids captures the exact bytes the worker will serve.
 * `created` names the recorded job.
 */
export function renderJobRecording(job: NewRenderJob, source: Prisma.Sql = Prisma.sql`(SELECT 1) AS always`): Prisma.Sql {
  const input = 'html' in job.input ? inputValues(job.input) : job.input;
  const credit = job.unbilled ? 'none' : 'reserved';
  const bulk = isBulkWork({ groupId: job.groupId ?? null, credit });
  return Prisma.sql`
    job_input AS (${input}),
    created AS (
      INSERT INTO render_jobs (id, account_id, key_id, kind, credit, reference, filename, template_id, template_version, data_sha256, options,
                               group_id, retry_of, hidden_at, created_at)
      SELECT ${job.id}::text, ${job.accountId}::text, ${job.keyId}::text, ${job.kind}::"RenderKind", ${credit}::"JobCredit",
             ${job.reference ?? null}::text, ${job.filename}::text, ${job.template?.id ?? null}::text, ${job.template?.version ?? null}::int,
             i.data_sha256, i.options, ${job.groupId ?? null}::text, ${job.retryOf ?? null}::text, ${job.hiddenAt ?? null}::timestamptz, ${job.now}::timestamptz
        FROM ${source}, job_input i
      RETURNING id),
    input AS (INSERT INTO render_inputs (job_id, html) SELECT created.id, i.html FROM created, job_input i),
    assets AS (INSERT INTO render_job_assets (job_id, asset_id) SELECT created.id, unnest(i.asset_ids) FROM created, job_input i),
    ${renderQueueEntries(job.queued === false ? Prisma.sql`created WHERE false` : Prisma.sql`created`, bulk)}`;
}

const inputValues = (input: RenderJobInput) => Prisma.sql`
  SELECT ${input.html}::text AS html, ${JSON.stringify(input.options)}::jsonb AS options, ${input.assetIds}::text[] AS asset_ids, ${input.dataSha256}::text AS data_sha256`;

/**
 * Records a job admitted by its caller's checks (a group member, a preview, a render paid the general way) in one
 * statement, which ends with `then` (a statement over `created`).
 */
export async function recordRenderJob(db: DbOrTx, job: NewRenderJob, then: Prisma.Sql = Prisma.sql`SELECT id FROM created`): Promise<void> {
  await db.$queryRaw`WITH ${renderJobRecording(job)} ${then}`;
}

// ---- live jobs

/** Live (queued or running) jobs allowed at once (the contract's limits). */
export const accountConcurrency = 16;
export const keyConcurrency = 8;
const concurrencyRetrySeconds = 1;

/** The statuses of a live job: it holds a slot of its account's and its key's limits. */
const liveStatuses = ['queued', 'running'] as const;

/** Whether a job has ended (null: no job). */
export function isTerminal<Job extends { status: string }>(job: Job | null): job is Job & { status: Exclude<Job['status'], (typeof liveStatuses)[number]> } {
  return job !== null && !(liveStatuses as readonly string[]).includes(job.status);
}

/** The account's live jobs, as a relation of key_id, group_id and credit. */
const liveJobsOf = (accountId: string) =>
  Prisma.sql`(SELECT key_id, group_id, credit FROM render_jobs WHERE account_id = ${accountId} AND status IN (${Prisma.raw(liveStatuses.map((status) => `'${status}'`).join(', '))})) AS live_jobs`;

/** A statement's relation of the live counts that concern a new job of `keyId` (a session's "key" count is the account's jobs made without a key). */
export const liveCountsOf = (accountId: string, keyId: string | null) => Prisma.sql`
  SELECT count(*)::int AS account, (count(*) FILTER (WHERE key_id IS NOT DISTINCT FROM ${keyId}))::int AS key FROM ${liveJobsOf(accountId)}`;

/** Whether the live counts of `live` (a relation of liveCountsOf) leave room for one more job. */
export const underLiveLimits = (live: Prisma.Sql) => Prisma.sql`(SELECT account < ${accountConcurrency} AND key < ${keyConcurrency} FROM ${live})`;

export interface LiveJobs {
  account: number;
  /** group members' jobs */
  groups: number;
  /** unbilled jobs (credit none) */
  unbilled: number;
  /** per key; null: jobs made without a key */
  byKey: Map<string | null, number>;
}

/** Queued and running jobs of the account, in all, per kind of work and per key. */
export async function liveJobs(db: DbOrTx, accountId: string): Promise<LiveJobs> {
  const rows = await db.$queryRaw<{ key_id: string | null; live: number; groups: number; unbilled: number }[]>`
    SELECT key_id, count(*)::int AS live, (count(*) FILTER (WHERE group_id IS NOT NULL))::int AS groups,
           (count(*) FILTER (WHERE credit = 'none'))::int AS unbilled
      FROM ${liveJobsOf(accountId)} GROUP BY key_id`;
  const sum = (column: 'live' | 'groups' | 'unbilled') => rows.reduce((total, row) => total + row[column], 0);
  return { account: sum('live'), groups: sum('groups'), unbilled: sum('unbilled'), byKey: new Map(rows.map((row) => [row.key_id, row.live])) };
}

/** The live counts that concern a new job of `keyId`. */
export const liveCountsFor = (live: LiveJobs, keyId: string | null) => ({ account: live.account, key: live.byKey.get(keyId) ?? 0 });

/** Which live limit a new job would pass: the account's, the key's, or none. */
export function fullLiveLimit(live: { account: number; key: number }): 'account' | 'key' | null {
  if (live.account >= accountConcurrency) return 'account';
  if (live.key >= keyConcurrency) return 'key';
  return null;
}

/** 429 account_concurrency_limited or key_concurrency_limited. */
export function liveLimitRefusal(full: 'account' | 'key'): DomainError {
  return new DomainError(full === 'account' ? 'account_concurrency_limited' : 'key_concurrency_limited', { retryAfterSeconds: concurrencyRetrySeconds });
}

/** Throws liveLimitRefusal when live counts are at a limit. */
export function refuseOverLiveLimits(live: { account: number; key: number }): void {
  const full = fullLiveLimit(live);
  if (full) throw liveLimitRefusal(full);
}

// ---- the job as a record

/** A column of render_jobs under a record field of type T: a time is marked, so JSON's text turns back into a Date. */
type Column<T> = Date extends NonNullable<T> ? { time: string } : string;

/** render_jobs' column of each field of the record; the compiler checks that every field has one and every time is marked. */
const recordColumns = {
  id: 'id',
  accountId: 'account_id',
  keyId: 'key_id',
  kind: 'kind',
  status: 'status',
  credit: 'credit',
  reference: 'reference',
  filename: 'filename',
  templateId: 'template_id',
  templateVersion: 'template_version',
  dataSha256: 'data_sha256',
  options: 'options',
  mediaType: 'media_type',
  byteSize: 'byte_size',
  pageCount: 'page_count',
  sha256: 'sha256',
  storageKey: 'storage_key',
  thumbnailKey: 'thumbnail_key',
  expiresAt: { time: 'expires_at' },
  removedReason: 'removed_reason',
  errorCategory: 'error_category',
  errorCode: 'error_code',
  attempts: 'attempts',
  leaseExpiresAt: { time: 'lease_expires_at' },
  hiddenAt: { time: 'hidden_at' },
  createdAt: { time: 'created_at' },
  startedAt: { time: 'started_at' },
  finishedAt: { time: 'finished_at' },
  retryOf: 'retry_of',
  groupId: 'group_id',
  report: 'report',
} as const satisfies { [Field in keyof RenderJobRecord]-?: Column<RenderJobRecord[Field]> };

const fields = Object.entries(recordColumns).map(([field, column]) => ({ field, column: typeof column === 'string' ? column : column.time, time: typeof column !== 'string' }));

/** The columns of render_jobs and whether each holds a time (for a check against the schema). */
export const renderJobColumns = fields.map(({ column, time }) => ({ column, time }));

/** The job as the answer shows it, read with the driver (queryRows) rather than the model's findUnique. */
export async function readRenderJob(db: DbOrTx, jobId: string): Promise<RenderJobRecord> {
  const select = Prisma.raw(fields.map(({ field, column }) => `${column} AS "${field}"`).join(', '));
  const [job] = await queryRows<RenderJobRecord>(db, Prisma.sql`SELECT ${select} FROM render_jobs WHERE id = ${jobId}`);
  if (!job) throw new Error(`render job ${jobId} not found`);
  return job;
}

/** The record of the finished row `job` as JSON under the record's field names. */
const recordJson = Prisma.raw(`json_build_object(${fields.map(({ field, column }) => `'${field}', job.${column}`).join(', ')})::text`);

/**
 * The notice of a job's end, an expression over the finished row `job`: on renderFinishedChannel,
 * the job's id, then (when it fits the 8,000 bytes a notice may carry) a space and the job's
 * record as JSON, so a request waiting for the job answers without reading it (decodeRenderFinished).
 */
export const renderFinishedNotice = Prisma.sql`pg_notify(${renderFinishedChannel},
  (SELECT CASE WHEN octet_length(record) < 7900 THEN job.id || ' ' || record ELSE job.id END FROM (SELECT ${recordJson} AS record) AS finished))`;

/** A notice of renderFinishedNotice: the job's id, and its finished record when the notice carried it. */
export function decodeRenderFinished(payload: string): { jobId: string; job: RenderJobRecord | null } {
  const space = payload.indexOf(' ');
  if (space === -1) return { jobId: payload, job: null };
  const job = JSON.parse(payload.slice(space + 1)) as Record<string, unknown>;
  for (const { field, time } of fields) if (time && typeof job[field] === 'string') job[field] = new Date(job[field]);
  return { jobId: payload.slice(0, space), job: job as RenderJobRecord };
}
