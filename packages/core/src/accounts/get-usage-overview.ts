import type { JobStatus, RenderKind } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { periodOf } from '../shared/period.ts';

export interface GetUsageOverviewOptions {
  accountId: string;
  /** Days of render counts, ending today (UTC); 30 unless told. */
  days?: number;
  /** Recent failures listed; 5 unless told. */
  failures?: number;
}

export interface RenderDay {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  succeeded: number;
  failed: number;
}

export interface RecentFailure {
  id: string;
  kind: RenderKind;
  status: Extract<JobStatus, 'failed'>;
  errorCode: string | null;
  errorCategory: string | null;
  filename: string;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface KeyOverage {
  keyId: string;
  name: string;
  displayPrefix: string;
  /** Overage credits the key used this calendar month (UTC). */
  used: number;
  /** The key's monthly overage cap; null sets none. */
  cap: number | null;
}

export interface UsageOverview {
  /** One entry per day, oldest first, days without renders included. */
  renderDays: RenderDay[];
  failures: RecentFailure[];
  /** This month's overage of each active key (and of any revoked key that used some). */
  overageByKey: KeyOverage[];
  /** The calendar month the overage counts in, YYYY-MM. */
  period: string;
}

/**
 * What the dashboard's overview shows beside the balances: renders finished per day (by the
 * day they finished, UTC), the newest failures with their error codes (jobs removed from
 * history left out), and this month's overage against each key's cap.
 */
export async function getUsageOverview(ctx: ServiceContext, options: GetUsageOverviewOptions): Promise<UsageOverview> {
  const { accountId, days = 30, failures: failureCount = 5 } = options;
  const now = ctx.clock();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * 86_400_000);
  const period = periodOf(now);
  const [counts, failures, keys, overage] = await Promise.all([
    ctx.db.$queryRaw<{ day: string; succeeded: number; failed: number }[]>`
      SELECT to_char(date_trunc('day', finished_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
             count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
             count(*) FILTER (WHERE status = 'failed')::int AS failed
        FROM render_jobs
       WHERE account_id = ${accountId} AND finished_at >= ${from} AND status IN ('succeeded', 'failed')
       GROUP BY 1`,
    ctx.db.renderJob.findMany({
      where: { accountId, status: 'failed', hiddenAt: null },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: failureCount,
      select: { id: true, kind: true, errorCode: true, errorCategory: true, filename: true, createdAt: true, finishedAt: true },
    }),
    ctx.db.apiKey.findMany({ where: { accountId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    ctx.db.overageUsage.findMany({ where: { accountId, period } }),
  ]);
  const byDay = new Map(counts.map((row) => [row.day, row]));
  const renderDays = Array.from({ length: days }, (_, index) => {
    const day = new Date(from.getTime() + index * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, succeeded: row?.succeeded ?? 0, failed: row?.failed ?? 0 };
  });
  const usedOf = new Map(overage.map((row) => [row.keyId, row.used]));
  const overageByKey = keys
    .filter((key) => key.status === 'active' || (usedOf.get(key.id) ?? 0) > 0)
    .map((key) => ({ keyId: key.id, name: key.name, displayPrefix: key.displayPrefix, used: usedOf.get(key.id) ?? 0, cap: key.monthlyOverageCap }));
  return {
    renderDays,
    failures: failures.map((job) => ({ ...job, status: 'failed' as const })),
    overageByKey,
    period,
  };
}
