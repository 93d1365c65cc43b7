import type { Tx } from '@svc/db';

export interface FinishReservationOptions {
  jobId: string;
  now: Date;
}

/**
 * Settles a job's reservation: the held credit is spent. Applied at most once per job,
 * whatever retries or races call it; returns whether this call applied it.
 */
export async function settleCredit(tx: Tx, { jobId, now }: FinishReservationOptions): Promise<boolean> {
  const rows = await tx.$queryRaw<{ account_id: string; key_id: string | null; source: string; amount: number }[]>`
    UPDATE credit_reservations SET state = 'settled', finished_at = ${now}
     WHERE job_id = ${jobId} AND state = 'reserved'
    RETURNING account_id, key_id, source::text, amount`;
  const row = rows[0];
  if (!row) return false;
  await tx.$executeRaw`
    INSERT INTO credit_ledger (account_id, job_id, key_id, kind, source, amount, created_at)
    VALUES (${row.account_id}, ${jobId}, ${row.key_id}, 'settle', ${row.source}::"CreditSource", ${row.amount}, ${now})`;
  return true;
}

/**
 * Releases a job's reservation: the held credit goes back where it came from (its
 * bucket, or the key's overage count for that month). At most once per job; a settled
 * reservation is never released.
 */
export async function releaseCredit(tx: Tx, { jobId, now }: FinishReservationOptions): Promise<boolean> {
  const rows = await tx.$queryRaw<{ account_id: string; key_id: string | null; source: string; amount: number; period: string }[]>`
    UPDATE credit_reservations SET state = 'released', finished_at = ${now}
     WHERE job_id = ${jobId} AND state = 'reserved'
    RETURNING account_id, key_id, source::text, amount, period`;
  const row = rows[0];
  if (!row) return false;
  if (row.source === 'overage') {
    await tx.$executeRaw`
      UPDATE overage_usage SET used = GREATEST(used - ${row.amount}, 0)
       WHERE key_id = ${row.key_id ?? row.account_id} AND period = ${row.period}`;
  } else {
    await tx.$executeRaw`
      INSERT INTO credit_balances (account_id, bucket, balance) VALUES (${row.account_id}, ${row.source}::"CreditBucket", ${row.amount})
      ON CONFLICT (account_id, bucket) DO UPDATE SET balance = credit_balances.balance + ${row.amount}`;
  }
  await tx.$executeRaw`
    INSERT INTO credit_ledger (account_id, job_id, key_id, kind, source, amount, created_at)
    VALUES (${row.account_id}, ${jobId}, ${row.key_id}, 'release', ${row.source}::"CreditSource", ${row.amount}, ${now})`;
  return true;
}
