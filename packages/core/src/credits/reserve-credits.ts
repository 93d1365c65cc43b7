import type { CreditBucket, Plan, Tx } from '@svc/db';
import { DomainError } from '../shared/errors.ts';
import { periodOf } from '../shared/period.ts';
import { releaseCredit, settleCredit } from './finish-reservation.ts';
import { countReserved, overageKey } from './reserve-credit.ts';
import { planTerms, spendingOrder } from './plans.ts';

export interface ReserveCreditsOptions {
  accountId: string;
  plan: Plan;
  /** What the credits are held for (a message id); its parts are reservations named `<holdId>:<source>`. */
  holdId: string;
  amount: number;
  keyId: string | null;
  overageCap: number | null;
  /** Buckets that may not pay (AI builds: free monthly credits). */
  excluded?: readonly CreditBucket[];
  /** The refusal when the amount cannot be covered. */
  refusal: 'insufficient_credits' | 'ai_needs_paid_credits';
  now: Date;
}

/**
 * Holds several credits for one piece of work inside the caller's transaction (AI messages:
 * 25 or 50). Buckets pay in spending order, each as much as it holds, then paid plans fall
 * back to overage for the rest within the key's monthly cap. Each bucket that pays gets a
 * reservation row of its own (one source per row, as for renders), so settling and releasing
 * reuse the per-row, at-most-once functions. Nothing is held when the whole amount cannot be
 * covered: the refusal is thrown and the transaction rolls every decrement back.
 */
export async function reserveCredits(tx: Tx, options: ReserveCreditsOptions): Promise<void> {
  const { accountId, amount, now } = options;
  const period = periodOf(now);
  let remaining = amount;
  const parts: { source: string; amount: number }[] = [];
  for (const bucket of spendingOrder) {
    if (remaining === 0) break;
    if (options.excluded?.includes(bucket)) continue;
    // the balance is read and decremented on the locked row, so two holds cannot both spend it
    const rows = await tx.$queryRaw<{ taken: number }[]>`
      WITH current AS (SELECT balance FROM credit_balances WHERE account_id = ${accountId} AND bucket = ${bucket}::"CreditBucket" FOR UPDATE)
      UPDATE credit_balances b SET balance = b.balance - LEAST(current.balance, ${remaining}::int)
        FROM current
       WHERE b.account_id = ${accountId} AND b.bucket = ${bucket}::"CreditBucket" AND current.balance > 0
      RETURNING LEAST(current.balance, ${remaining}::int) AS taken`;
    const taken = rows[0]?.taken ?? 0;
    if (taken > 0) {
      parts.push({ source: bucket, amount: taken });
      remaining -= taken;
    }
  }
  if (remaining > 0 && planTerms[options.plan].overage) {
    const rows = await tx.$queryRaw<{ used: number }[]>`
      INSERT INTO overage_usage (account_id, key_id, period, used)
      SELECT ${accountId}, ${overageKey(options)}, ${period}, ${remaining}::int
       WHERE ${options.overageCap}::int IS NULL OR ${remaining}::int <= ${options.overageCap}::int
      ON CONFLICT (key_id, period) DO UPDATE SET used = overage_usage.used + ${remaining}::int
       WHERE ${options.overageCap}::int IS NULL OR overage_usage.used + ${remaining}::int <= ${options.overageCap}::int
      RETURNING used`;
    if (rows.length > 0) {
      parts.push({ source: 'overage', amount: remaining });
      remaining = 0;
    }
  }
  if (remaining > 0) throw new DomainError(options.refusal);
  for (const part of parts) {
    const id = `${options.holdId}:${part.source}`;
    await tx.$executeRaw`
      WITH reserved AS (
        INSERT INTO credit_reservations (job_id, account_id, key_id, source, period, amount, created_at)
        VALUES (${id}, ${accountId}, ${options.keyId}, ${part.source}::"CreditSource", ${period}, ${part.amount}, ${now}))
      INSERT INTO credit_ledger (account_id, job_id, key_id, kind, source, amount, created_at)
      VALUES (${accountId}, ${id}, ${options.keyId}, 'reserve', ${part.source}::"CreditSource", ${part.amount}, ${now})`;
  }
  countReserved(amount);
}

/** The reservation rows a hold may have: one per source (found by primary key). */
async function partsOf(tx: Tx, holdId: string): Promise<string[]> {
  const ids = [...spendingOrder, 'overage'].map((source) => `${holdId}:${source}`);
  const rows = await tx.$queryRaw<{ job_id: string }[]>`
    SELECT job_id FROM credit_reservations WHERE job_id = ANY(${ids}::text[]) AND state = 'reserved' ORDER BY job_id FOR UPDATE`;
  return rows.map((row) => row.job_id);
}

/** Spends every part held for the work; at most once each. */
export async function settleCredits(tx: Tx, holdId: string, now: Date): Promise<void> {
  for (const jobId of await partsOf(tx, holdId)) await settleCredit(tx, { jobId, now });
}

/** Gives every part held for the work back where it came from; at most once each. */
export async function releaseCredits(tx: Tx, holdId: string, now: Date): Promise<void> {
  for (const jobId of await partsOf(tx, holdId)) await releaseCredit(tx, { jobId, now });
}
