import { type CreditBucket, type CreditSource, type Plan, Prisma, type Tx } from '@svc/db';
import { metrics } from '../metrics/metrics.ts';
import { DomainError } from '../shared/errors.ts';
import { periodOf } from '../shared/period.ts';
import { planTerms, spendingOrder } from './plans.ts';

export interface ReserveCreditOptions {
  accountId: string;
  plan: Plan;
  /** The job the credit is held for; one reservation per job. */
  jobId: string;
  /** The API key that asked for the work; its monthly overage cap bounds overage. */
  keyId: string | null;
  overageCap: number | null;
  now: Date;
}

export interface Reservation {
  jobId: string;
  source: CreditSource;
  period: string;
}

const bucketPriority = `array_position(ARRAY[${spendingOrder.map((bucket) => `'${bucket}'`).join(',')}]::"CreditBucket"[], bucket)`;

/**
 * Holds one credit for a job, inside the caller's admission transaction; the job id is new
 * (the reservation's primary key refuses a second one). Prepaid buckets pay first, in spending
 * order; paid subscription plans then fall back to overage, bounded per key and calendar
 * month by the key's cap. Balances cannot go below zero: every decrement is conditional on the
 * row it changes (and a CHECK constraint backs that up). Throws 402 insufficient_credits when
 * nothing can pay.
 */
export async function reserveCredit(tx: Tx, options: ReserveCreditOptions): Promise<Reservation> {
  const period = periodOf(options.now);
  const bucket = await takeFromBuckets(tx, options, period);
  if (!bucket) {
    if (!(await takeOverage(tx, options, period))) throw new DomainError('insufficient_credits');
    await record(tx, options, 'overage', period);
  }
  countReserved(1);
  return { jobId: options.jobId, source: bucket ?? 'overage', period };
}

/** Counted as the reservation is written; a transaction that then rolls back still counted it. */
export function countReserved(credits: number): void {
  metrics.creditChanges.inc({ change: 'reserved' }, credits);
}

/** The reservation and its ledger entry, for a source already taken. */
async function record(tx: Tx, options: ReserveCreditOptions, source: CreditSource, period: string): Promise<void> {
  await tx.$executeRaw`WITH paid AS (SELECT ${source}::"CreditSource" AS source), ${reservationRows(options, period, Prisma.sql`paid`)} SELECT 1`;
}

/**
 * Takes one credit from the first bucket in spending order that has one, and records the
 * reservation and its ledger entry in the same statement. The inner pick reads without locking;
 * the outer update re-checks the balance on the locked row, so a bucket drained meanwhile
 * updates nothing and the pick is retried.
 */
async function takeFromBuckets(tx: Tx, options: ReserveCreditOptions, period: string): Promise<CreditBucket | null> {
  for (let attempt = 0; attempt < spendingOrder.length + 1; attempt++) {
    const rows = await tx.$queryRaw<{ bucket: CreditBucket | null; left: boolean }[]>`
      WITH ${bucketReservation(options, period, Prisma.sql`true`)}
      SELECT (SELECT bucket FROM taken) AS bucket, ${creditLeft(options.accountId)} AS left`;
    const row = rows[0];
    if (row?.bucket) return row.bucket;
    // the snapshot saw a credit the update could not take (drained meanwhile): pick again
    if (!row?.left) return null;
  }
  return null;
}

/**
 * The bucket reservation as common table expressions of a larger statement: when `when` (a
 * boolean expression) holds, one credit is taken from the first bucket in spending order that
 * has one, with the reservation and its ledger entry; `taken` names the bucket (no row: none
 * taken, and creditLeft tells a drained pick from an empty account).
 */
export function bucketReservation(options: ReserveCreditOptions, period: string, when: Prisma.Sql): Prisma.Sql {
  const { accountId } = options;
  return Prisma.sql`
    taken AS (
      UPDATE credit_balances SET balance = balance - 1
       WHERE ${when} AND account_id = ${accountId} AND balance >= 1 AND bucket = (
         SELECT bucket FROM credit_balances WHERE account_id = ${accountId} AND balance >= 1 ORDER BY ${Prisma.raw(bucketPriority)} LIMIT 1)
      RETURNING bucket::text::"CreditSource" AS source, bucket),
    ${reservationRows(options, period, Prisma.sql`taken`)}`;
}

/**
 * The reservation of one credit and its ledger entry as common table expressions, paid from the
 * source named by `paid` (a relation with a source column; no row: nothing recorded).
 */
function reservationRows(options: ReserveCreditOptions, period: string, paid: Prisma.Sql): Prisma.Sql {
  const { accountId, jobId, keyId, now } = options;
  return Prisma.sql`
    reserved AS (
      INSERT INTO credit_reservations (job_id, account_id, key_id, source, period, amount, created_at)
      SELECT ${jobId}::text, ${accountId}::text, ${keyId}::text, source, ${period}::text, 1, ${now}::timestamptz FROM ${paid}),
    reserve_ledger AS (
      INSERT INTO credit_ledger (account_id, job_id, key_id, kind, source, amount, created_at)
      SELECT ${accountId}::text, ${jobId}::text, ${keyId}::text, 'reserve'::"LedgerKind", source, 1, ${now}::timestamptz FROM ${paid})`;
}

/** Whether the account has a bucket with a credit in it, as the statement sees it. */
export function creditLeft(accountId: string): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM credit_balances WHERE account_id = ${accountId} AND balance >= 1)`;
}

async function takeOverage(tx: Tx, options: ReserveCreditOptions, period: string): Promise<boolean> {
  if (!planTerms[options.plan].overage) return false;
  const rows = await tx.$queryRaw<{ used: number }[]>`
    INSERT INTO overage_usage (account_id, key_id, period, used)
    VALUES (${options.accountId}, ${overageKey(options)}, ${period}, 1)
    ON CONFLICT (key_id, period) DO UPDATE SET used = overage_usage.used + 1
     WHERE ${options.overageCap}::int IS NULL OR overage_usage.used < ${options.overageCap}::int
    RETURNING used`;
  return rows.length > 0;
}

/** Overage is counted per key; work asked for without a key counts against the account itself. */
export function overageKey(options: { accountId: string; keyId: string | null }): string {
  return options.keyId ?? options.accountId;
}
