import { type DbOrTx, Prisma } from '@svc/db';
import type { ServiceMetrics } from '../ports/metrics.ts';

export interface FinishReservationOptions {
  jobId: string;
  now: Date;
  /** Where the settled or released credit is counted (the service context's). */
  metrics: ServiceMetrics;
}

/**
 * Settles a job's reservation: the held credit is spent. Applied at most once per job,
 * whatever retries or races call it; returns whether this call applied it. One statement.
 */
export async function settleCredit(db: DbOrTx, { jobId, now, metrics }: FinishReservationOptions): Promise<boolean> {
  const rows = await db.$queryRaw<{ job_id: string; amount: number }[]>`
    WITH finishing AS (SELECT ${jobId}::text AS id), ${settlement(Prisma.sql`finishing`, now)}
    SELECT job_id, amount FROM settled`;
  for (const row of rows) metrics.creditChanges.inc({ change: 'settled' }, row.amount);
  return rows.length > 0;
}

/**
 * Releases a job's reservation: the held credit goes back where it came from (its
 * bucket, or the key's overage count for that month). At most once per job; a settled
 * reservation is never released. One statement.
 */
export async function releaseCredit(db: DbOrTx, { jobId, now, metrics }: FinishReservationOptions): Promise<boolean> {
  const rows = await db.$queryRaw<{ job_id: string; amount: number }[]>`
    WITH finishing AS (SELECT ${jobId}::text AS id), ${release(Prisma.sql`finishing`, now)}
    SELECT job_id, amount FROM released`;
  for (const row of rows) metrics.creditChanges.inc({ change: 'released' }, row.amount);
  return rows.length > 0;
}

/**
 * The settlement as common table expressions of a larger statement: the reservations of the
 * jobs in `jobs` (a relation with an id column) still held are settled, each with its ledger
 * entry; `settled` names them.
 */
export function settlement(jobs: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`
    settled AS (
      UPDATE credit_reservations SET state = 'settled', finished_at = ${now}
       WHERE job_id IN (SELECT id FROM ${jobs}) AND state = 'reserved'
      RETURNING job_id, account_id, key_id, source, amount),
    settled_ledger AS (
      INSERT INTO credit_ledger (account_id, job_id, key_id, kind, source, amount, created_at)
      SELECT account_id, job_id, key_id, 'settle'::"LedgerKind", source, amount, ${now}::timestamptz FROM settled)`;
}

/**
 * The release as common table expressions of a larger statement: the reservations of the jobs
 * in `jobs` still held are released, each credit returned to its bucket or to the key's
 * overage count of its month, with its ledger entry; `released` names them.
 */
export function release(jobs: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`
    released AS (
      UPDATE credit_reservations SET state = 'released', finished_at = ${now}
       WHERE job_id IN (SELECT id FROM ${jobs}) AND state = 'reserved'
      RETURNING job_id, account_id, key_id, source, amount, period),
    returned_overage AS (
      UPDATE overage_usage u SET used = GREATEST(u.used - r.amount, 0)
        FROM released r
       WHERE r.source = 'overage' AND u.key_id = COALESCE(r.key_id, r.account_id) AND u.period = r.period),
    returned_credit AS (
      INSERT INTO credit_balances (account_id, bucket, balance)
      SELECT account_id, source::text::"CreditBucket", amount FROM released WHERE source <> 'overage'
      ON CONFLICT (account_id, bucket) DO UPDATE SET balance = credit_balances.balance + EXCLUDED.balance),
    released_ledger AS (
      INSERT INTO credit_ledger (account_id, job_id, key_id, kind, source, amount, created_at)
      SELECT account_id, job_id, key_id, 'release'::"LedgerKind", source, amount, ${now}::timestamptz FROM released)`;
}
