import { commitWithoutFlush, type DbOrTx, type Plan, Prisma, queryRows, type RunStatement, type Tx } from '@svc/db';
import { bucketReservation, countReserved, creditLeft, reserveCredits, type ReserveCreditsOptions } from '../credits/reserve-credits.ts';
import { periodOf } from '../shared/period.ts';
import { rateAmountChange, refuseWhenShort } from '../limits/rate-limit.ts';
import type { ServiceMetrics } from '../ports/metrics.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newRenderJobId } from '../shared/ids.ts';
import { liveCountsOf, type NewRenderJob, recordRenderJob, refuseOverLiveLimits, renderJobRecording, type RenderJobInput, underLiveLimits } from './render-job-store.ts';

const overloadRetrySeconds = 5;

/** A new render admitted by its caller's request: billed, single (not a group member), listed and queued. */
export interface AdmittedRenderJob extends Omit<NewRenderJob, 'id' | 'input' | 'unbilled' | 'groupId' | 'hiddenAt' | 'queued'> {
  /** The new job's id when the caller chose it (to listen for its end before it exists); made here otherwise. */
  id?: string;
  plan: Plan;
  overageCap: number | null;
  input: RenderJobInput;
}

/** 503 overloaded while the queue already holds SVC_MAX_RENDER_BACKLOG renders (or the smaller `bound` given). */
export async function refuseWhenOverloaded(ctx: ServiceContext, bound = ctx.config.maxRenderBacklog): Promise<void> {
  if (await backlogFull(ctx.db, bound)) throw new DomainError('overloaded', { retryAfterSeconds: overloadRetrySeconds });
}

/**
 * The checks before a new render's transaction: a render_creation token of the principal
 * (429), then the service backlog (503), asked in one statement and answered in that order:
 * the token is spent whatever the backlog, as if asked first. The common admission asks the
 * same in its own statement (admitRenderJobWithToken).
 */
export async function takeRenderCreationToken(ctx: ServiceContext, subject: string, now: Date): Promise<void> {
  const bound = ctx.config.maxRenderBacklog;
  // committed without waiting for the disk: a token a database crash undoes is one more render allowed
  const [row] = await queryRows<CreationChecks>(
    ctx.db,
    Prisma.sql`
    WITH ${creationChecks(subject, now, bound)}
    SELECT (SELECT tokens FROM token)::float8 AS tokens, (SELECT queued FROM backlog) AS queued, ${commitWithoutFlush} AS unflushed`,
  );
  await refuseCreation(ctx, subject, bound, row);
}

/** What the creation checks answer: the principal's tokens left (negative: short) and the backlog, counted up to its bound. */
interface CreationChecks {
  tokens: number;
  queued: number;
}

/** The creation checks as common table expressions: `token` takes one, `backlog` counts the queue. */
const creationChecks = (subject: string, now: Date, bound: number) => Prisma.sql`
    token AS (${rateAmountChange('render_creation', subject, now, 1)}),
    backlog AS (SELECT (${queuedUpTo(bound)}) AS queued)`;

/** 429 rate_limited (the token given back), then 503 overloaded, as the creation checks answered. */
async function refuseCreation(ctx: ServiceContext, subject: string, bound: number, checks: CreationChecks | undefined): Promise<void> {
  await refuseWhenShort(ctx.db, 'render_creation', subject, 1, checks?.tokens ?? 0);
  if ((checks?.queued ?? 0) >= bound) throw new DomainError('overloaded', { retryAfterSeconds: overloadRetrySeconds });
}

/**
 * Serialises admissions of one account: concurrency counts and idempotency keys cannot race.
 * FOR NO KEY UPDATE, which conflicts with itself and every stronger lock but not with the key
 * share that each row written for the account (a job, a ledger entry, an event) takes through
 * its foreign key, so a finishing job never holds an admission up.
 */
export async function lockAccountAdmissions(tx: Tx, accountId: string): Promise<void> {
  await tx.$queryRaw(accountLock(accountId));
}

/** The statement of lockAccountAdmissions, for a transaction run without Prisma. */
export const accountLock = (accountId: string) => Prisma.sql`SELECT id FROM accounts WHERE id = ${accountId} FOR NO KEY UPDATE`;

/**
 * The admission every new render goes through, inside the caller's transaction holding the
 * account lock: the concurrency limits, one credit reserved, the job and its input recorded,
 * its assets captured, and the job queued for a worker. REST creation and an operator's retry
 * both come here, so both follow the same rules and billing. Returns the new job's id.
 */
export async function admitRenderJob(tx: Tx, job: AdmittedRenderJob, metrics: ServiceMetrics): Promise<string> {
  const admission = admissionOf(job, metrics);
  if (await admitFromBucket((sql) => tx.$queryRaw(sql), admission)) return admission.job.id;
  // no bucket paid in that statement (none has a credit, or the one picked drained meanwhile):
  // the reservation the general way (buckets again, then overage, else 402), then the job
  await reserveCredits(tx, admission.credit);
  await recordRenderJob(tx, admission.job);
  return admission.job.id;
}

/**
 * The common case of a new render, one statement that `run` runs in a transaction after the
 * account lock (queryAfter, without Prisma): the creation checks of takeRenderCreationToken
 * (the token is taken whatever follows), then, when they pass, admitRenderJob's common case.
 * True when a bucket paid and the job is recorded and queued; false when the general way is
 * needed (the token is spent, nothing else was written, and the caller admits with
 * admitRenderJob in a transaction of its own without taking another). Throws 429 or 503 as
 * the creation checks answer, then 429 over the live limits. One round trip and one commit
 * where the checks in a statement of their own took two of each.
 */
export async function admitRenderJobWithToken(
  ctx: ServiceContext,
  subject: string,
  run: RunStatement,
  job: AdmittedRenderJob & { id: string },
  /** A further condition of the admission (a saved template's version still selected); false admits nothing, as when no bucket paid. */
  holds: Prisma.Sql = Prisma.sql`true`,
): Promise<boolean> {
  const bound = ctx.config.maxRenderBacklog;
  return admitFromBucket(run, admissionOf(job, ctx.metrics), {
    expressions: creationChecks(subject, job.now, bound),
    passed: Prisma.sql`(SELECT tokens >= 0 FROM token) AND (SELECT queued < ${bound} FROM backlog) AND ${holds}`,
    answers: Prisma.sql`(SELECT tokens FROM token)::float8 AS tokens, (SELECT queued FROM backlog) AS queued`,
    refuse: (row) => refuseCreation(ctx, subject, bound, row),
  });
}

/** Checks a statement of the admission asks first; the admission writes only when `passed` holds. */
interface AdmissionGate {
  expressions: Prisma.Sql;
  passed: Prisma.Sql;
  answers: Prisma.Sql;
  refuse: (row: CreationChecks) => Promise<void>;
}

function admissionOf(admitted: AdmittedRenderJob, metrics: ServiceMetrics) {
  const { accountId, keyId, now } = admitted;
  const job: NewRenderJob = { ...admitted, id: admitted.id ?? newRenderJobId(admitted.kind) };
  const credit: ReserveCreditsOptions = { accountId, plan: admitted.plan, holder: { jobId: job.id }, keyId, overageCap: admitted.overageCap, now, metrics };
  return { job, credit };
}

/**
 * The common case in one statement: the live-job counts (a session's "key" count is the
 * account's jobs made without a key, docs/decisions/accounts.md, Principals), and while both
 * are under their limits a credit from a bucket with its reservation, then the job recorded
 * and queued. False when no bucket paid.
 */
async function admitFromBucket(run: RunStatement, { job, credit }: ReturnType<typeof admissionOf>, gate?: AdmissionGate): Promise<boolean> {
  const underLimits = underLiveLimits(Prisma.sql`live`);
  const [row] = await run<{ account: number; key: number; bucket: string | null; left: boolean } & CreationChecks>(Prisma.sql`
    WITH ${gate ? Prisma.sql`${gate.expressions},` : Prisma.empty}
    live AS (${liveCountsOf(job.accountId, job.keyId)}),
    ${bucketReservation(credit, periodOf(job.now), gate ? Prisma.sql`${underLimits} AND ${gate.passed}` : underLimits)},
    ${renderJobRecording(job, Prisma.sql`taken`)}
    SELECT live.account, live.key, (SELECT bucket::text FROM taken) AS bucket, ${creditLeft(job.accountId)} AS left${gate ? Prisma.sql`, ${gate.answers}` : Prisma.empty}
      FROM live`);
  if (gate) await gate.refuse(row!);
  refuseOverLiveLimits(row ?? { account: 0, key: 0 });
  if (!row?.bucket) return false;
  countReserved(credit.metrics, 1);
  return true;
}

/** Whether the queue already holds `bound` jobs; counts no further than that. */
async function backlogFull(db: DbOrTx, bound: number): Promise<boolean> {
  const [row] = await db.$queryRaw<{ queued: number }[]>`SELECT (${queuedUpTo(bound)}) AS queued`;
  return (row?.queued ?? 0) >= bound;
}

/** How many renders are queued, counted no further than `bound`. */
const queuedUpTo = (bound: number) => Prisma.sql`SELECT count(*)::int FROM (SELECT 1 FROM render_jobs WHERE status = 'queued' LIMIT ${bound}) AS backlog`;
