import type { CreditBucket, CreditSource, Plan, Tx } from '@svc/db';
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
 * Holds one credit for a job, inside the caller's admission transaction.
 * Prepaid buckets pay first, in spending order; paid subscription plans then fall back
 * to overage, bounded per key and calendar month by the key's cap. Balances cannot go
 * below zero: every decrement is conditional on the row it changes (and a CHECK
 * constraint backs that up). Throws 402 insufficient_credits when nothing can pay.
 */
export async function reserveCredit(tx: Tx, options: ReserveCreditOptions): Promise<Reservation> {
  const existing = await tx.creditReservation.findUnique({ where: { jobId: options.jobId } });
  if (existing) return { jobId: existing.jobId, source: existing.source, period: existing.period };

  const period = periodOf(options.now);
  const source = (await takeFromBuckets(tx, options.accountId)) ?? (await takeOverage(tx, options, period));
  if (!source) throw new DomainError('insufficient_credits');

  // the reservation and its ledger entry in one statement
  await tx.$executeRaw`
    WITH reserved AS (
      INSERT INTO credit_reservations (job_id, account_id, key_id, source, period, amount, created_at)
      VALUES (${options.jobId}, ${options.accountId}, ${options.keyId}, ${source}::"CreditSource", ${period}, 1, ${options.now}))
    INSERT INTO credit_ledger (account_id, job_id, key_id, kind, source, amount, created_at)
    VALUES (${options.accountId}, ${options.jobId}, ${options.keyId}, 'reserve', ${source}::"CreditSource", 1, ${options.now})`;
  return { jobId: options.jobId, source, period };
}

async function takeFromBuckets(tx: Tx, accountId: string): Promise<CreditBucket | null> {
  // The inner pick reads without locking; the outer update re-checks the balance on the
  // locked row, so a bucket drained meanwhile updates nothing and the pick is retried.
  for (let attempt = 0; attempt < spendingOrder.length + 1; attempt++) {
    const rows = await tx.$queryRawUnsafe<{ bucket: CreditBucket }[]>(
      `UPDATE credit_balances SET balance = balance - 1
        WHERE account_id = $1 AND balance >= 1 AND bucket = (
          SELECT bucket FROM credit_balances WHERE account_id = $1 AND balance >= 1 ORDER BY ${bucketPriority} LIMIT 1)
        RETURNING bucket`,
      accountId,
    );
    if (rows[0]) return rows[0].bucket;
    const left = await tx.creditBalance.count({ where: { accountId, balance: { gte: 1 } } });
    if (left === 0) return null;
  }
  return null;
}

async function takeOverage(tx: Tx, options: ReserveCreditOptions, period: string): Promise<CreditSource | null> {
  if (!planTerms[options.plan].overage) return null;
  const rows = await tx.$queryRaw<{ used: number }[]>`
    INSERT INTO overage_usage (account_id, key_id, period, used)
    VALUES (${options.accountId}, ${overageKey(options)}, ${period}, 1)
    ON CONFLICT (key_id, period) DO UPDATE SET used = overage_usage.used + 1
     WHERE ${options.overageCap}::int IS NULL OR overage_usage.used < ${options.overageCap}::int
    RETURNING used`;
  return rows.length > 0 ? 'overage' : null;
}

/** Overage is counted per key; work asked for without a key counts against the account itself. */
export function overageKey(options: { accountId: string; keyId: string | null }): string {
  return options.keyId ?? options.accountId;
}
