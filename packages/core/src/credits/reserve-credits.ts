// Credit reservation: the one place that decides which buckets pay for work, in what order, when
// overage may pay the rest within a key's monthly cap, and what the reservation and its ledger
// entry record. A render job's single credit and an AI message's 25 or 50 go through the same
// statements.
import { type CreditBucket, type CreditSource, type Plan, Prisma, type Tx } from '@svc/db';
import type { ServiceMetrics } from '../ports/metrics.ts';
import { DomainError } from '../shared/errors.ts';
import { periodOf } from '../shared/period.ts';
import { releaseCredit, settleCredit } from './finish-reservation.ts';
import { planTerms, spendingOrder } from './plans.ts';

/**
 * What the credits are held for. A render job holds one credit under its own id (the
 * reservation's primary key refuses a second one). Work priced in several credits (an AI
 * message) holds one reservation per source that pays, named `<holdId>:<source>`, so settling
 * and releasing reuse the per-reservation, at-most-once functions.
 */
export type CreditHolder = { jobId: string } | { holdId: string; amount: number };

export interface ReserveCreditsOptions {
  accountId: string;
  plan: Plan;
  holder: CreditHolder;
  /** The API key that asked for the work; its monthly overage cap bounds overage. */
  keyId: string | null;
  overageCap: number | null;
  /** Buckets that may not pay (AI builds: free monthly credits). */
  excluded?: readonly CreditBucket[];
  /** The refusal when the amount cannot be covered; insufficient_credits unless given. */
  refusal?: 'insufficient_credits' | 'ai_needs_paid_credits';
  now: Date;
  /** Where the reservation is counted (the service context's). */
  metrics: ServiceMetrics;
}

/** One source that pays part of a reservation, in the order they paid. */
export interface ReservedPart {
  source: CreditSource;
  amount: number;
}

const bucketPriority = Prisma.raw(`array_position(ARRAY[${spendingOrder.map((bucket) => `'${bucket}'`).join(',')}]::"CreditBucket"[], bucket)`);

/**
 * Holds credits for work inside the caller's transaction (a render's admission, an AI message).
 * Buckets pay in spending order, each as much as it holds; paid subscription plans then fall
 * back to overage for the rest, bounded per key and calendar month by the key's cap. Balances
 * cannot go below zero: every decrement is read and made on the locked row (and a CHECK
 * constraint backs that up). When the whole amount cannot be covered the refusal is thrown and
 * the caller's transaction rolls every decrement back.
 */
export async function reserveCredits(tx: Tx, options: ReserveCreditsOptions): Promise<ReservedPart[]> {
  const period = periodOf(options.now);
  const amount = amountOf(options.holder);
  const excluded = [...(options.excluded ?? [])];
  const parts: ReservedPart[] = [];
  let remaining = amount;
  // a bucket that paid is not picked again; a pick whose bucket drained meanwhile is retried
  for (let misses = 0; remaining > 0 && misses <= spendingOrder.length; ) {
    const rows = await tx.$queryRaw<{ source: CreditBucket | null; amount: number | null; left: boolean }[]>`
      WITH ${bucketReservation(options, period, Prisma.sql`true`, { amount: remaining, excluded })}
      SELECT (SELECT source::text FROM taken) AS source, (SELECT amount FROM taken) AS amount, ${creditLeft(options.accountId, excluded)} AS left`;
    const row = rows[0];
    if (row?.source && row.amount) {
      parts.push({ source: row.source, amount: row.amount });
      excluded.push(row.source);
      remaining -= row.amount;
    } else if (row?.left) misses++;
    else break;
  }
  if (remaining > 0 && (await takeOverage(tx, options, period, remaining))) {
    await tx.$executeRaw`
      WITH paid AS (SELECT 'overage'::"CreditSource" AS source, ${remaining}::int AS amount), ${reservationRows(options, period, Prisma.sql`paid`)}
      SELECT 1`;
    parts.push({ source: 'overage', amount: remaining });
    remaining = 0;
  }
  if (remaining > 0) throw new DomainError(options.refusal ?? 'insufficient_credits');
  countReserved(options.metrics, amount);
  return parts;
}

/** Counted as the reservation is written; a transaction that then rolls back still counted it. */
export function countReserved(metrics: ServiceMetrics, credits: number): void {
  metrics.creditChanges.inc({ change: 'reserved' }, credits);
}

function amountOf(holder: CreditHolder): number {
  return 'jobId' in holder ? 1 : holder.amount;
}

/**
 * The bucket part of a reservation as common table expressions of a larger statement: when
 * `when` (a boolean expression) holds, the first bucket in spending order with a credit (none
 * of `excluded`) pays up to `amount`, as much as it holds, with its reservation and ledger
 * entry; `taken` names the bucket and what it gave (no row: none paid, and creditLeft tells a
 * drained pick from an empty account). The pick reads without locking; the balance is read
 * again on the locked row, so a bucket drained meanwhile pays nothing.
 */
export function bucketReservation(
  options: ReserveCreditsOptions,
  period: string,
  when: Prisma.Sql,
  pick = { amount: amountOf(options.holder), excluded: options.excluded ?? [] },
): Prisma.Sql {
  const { accountId } = options;
  return Prisma.sql`
    picked AS (
      SELECT bucket FROM credit_balances
       WHERE account_id = ${accountId} AND balance >= 1 AND bucket::text <> ALL(${pick.excluded}::text[])
       ORDER BY ${bucketPriority} LIMIT 1),
    held AS (
      SELECT bucket, balance FROM credit_balances
       WHERE ${when} AND account_id = ${accountId} AND bucket = (SELECT bucket FROM picked)
         FOR UPDATE),
    taken AS (
      UPDATE credit_balances b SET balance = b.balance - LEAST(held.balance, ${pick.amount}::int)
        FROM held
       WHERE b.account_id = ${accountId} AND b.bucket = held.bucket AND held.balance >= 1
      RETURNING b.bucket::text::"CreditSource" AS source, b.bucket, LEAST(held.balance, ${pick.amount}::int) AS amount),
    ${reservationRows(options, period, Prisma.sql`taken`)}`;
}

/**
 * The reservations and their ledger entries as common table expressions, one per row of `paid`
 * (a relation with source and amount columns; no row: nothing recorded).
 */
function reservationRows(options: ReserveCreditsOptions, period: string, paid: Prisma.Sql): Prisma.Sql {
  const { accountId, keyId, now, holder } = options;
  const id = 'jobId' in holder ? Prisma.sql`${holder.jobId}::text` : Prisma.sql`${holder.holdId}::text || ':' || source::text`;
  return Prisma.sql`
    reserved AS (
      INSERT INTO credit_reservations (job_id, account_id, key_id, source, period, amount, created_at)
      SELECT ${id}, ${accountId}::text, ${keyId}::text, source, ${period}::text, amount, ${now}::timestamptz FROM ${paid}),
    reserve_ledger AS (
      INSERT INTO credit_ledger (account_id, job_id, key_id, kind, source, amount, created_at)
      SELECT ${accountId}::text, ${id}, ${keyId}::text, 'reserve'::"LedgerKind", source, amount, ${now}::timestamptz FROM ${paid})`;
}

/** Whether the account has a bucket with a credit in it (none of `excluded`), as the statement sees it. */
export function creditLeft(accountId: string, excluded: readonly CreditBucket[] = []): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM credit_balances WHERE account_id = ${accountId} AND balance >= 1 AND bucket::text <> ALL(${excluded}::text[]))`;
}

/** Counts `amount` against the key's overage of the month, if the plan allows overage and the cap leaves room for all of it. */
async function takeOverage(tx: Tx, options: ReserveCreditsOptions, period: string, amount: number): Promise<boolean> {
  if (!planTerms[options.plan].overage) return false;
  const rows = await tx.$queryRaw<{ used: number }[]>`
    INSERT INTO overage_usage (account_id, key_id, period, used)
    SELECT ${options.accountId}, ${overageKey(options)}, ${period}, ${amount}::int
     WHERE ${options.overageCap}::int IS NULL OR ${amount}::int <= ${options.overageCap}::int
    ON CONFLICT (key_id, period) DO UPDATE SET used = overage_usage.used + ${amount}::int
     WHERE ${options.overageCap}::int IS NULL OR overage_usage.used + ${amount}::int <= ${options.overageCap}::int
    RETURNING used`;
  return rows.length > 0;
}

/** Overage is counted per key; work asked for without a key counts against the account itself. */
export function overageKey(options: { accountId: string; keyId: string | null }): string {
  return options.keyId ?? options.accountId;
}

/** The reservations a hold may have: one per source (found by primary key). */
async function partsOf(tx: Tx, holdId: string): Promise<string[]> {
  const ids = [...spendingOrder, 'overage'].map((source) => `${holdId}:${source}`);
  const rows = await tx.$queryRaw<{ job_id: string }[]>`
    SELECT job_id FROM credit_reservations WHERE job_id = ANY(${ids}::text[]) AND state = 'reserved' ORDER BY job_id FOR UPDATE`;
  return rows.map((row) => row.job_id);
}

export interface CreditHoldOptions {
  holdId: string;
  now: Date;
  /** Where the settled or released credits are counted (the service context's). */
  metrics: ServiceMetrics;
}

/** Spends every part of a hold; at most once each. */
export async function settleCreditHold(tx: Tx, { holdId, now, metrics }: CreditHoldOptions): Promise<void> {
  for (const jobId of await partsOf(tx, holdId)) await settleCredit(tx, { jobId, now, metrics });
}

/** Gives every part of a hold back where it came from; at most once each. */
export async function releaseCreditHold(tx: Tx, { holdId, now, metrics }: CreditHoldOptions): Promise<void> {
  for (const jobId of await partsOf(tx, holdId)) await releaseCredit(tx, { jobId, now, metrics });
}
