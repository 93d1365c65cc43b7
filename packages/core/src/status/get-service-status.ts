import type { JobErrorCategory } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { computePublicStats, type ServiceStatus } from './get-public-stats.ts';
import { downtimeAfterMs } from './status-rules.ts';

/** The operator view looks back this far for failures and browser restarts. */
export const operatorStatusWindowMs = 60 * 60_000;

export interface FailureRate {
  category: JobErrorCategory;
  failed: number;
  /** failed / all jobs that finished (succeeded or failed) in the window; 0 when none finished. */
  rate: number;
}

export interface OperatorServiceStatus {
  status: ServiceStatus;
  /** Render jobs waiting for a worker. */
  queued: number;
  running: number;
  /** Worker processes that reported within the last three minutes. */
  workersSeen: number;
  /** Browser replacements (planned recycles and crashes) of the workers seen in the last hour, since each started. */
  browserRestarts: number;
  /** Jobs that finished (succeeded or failed) in the last hour. */
  finishedLastHour: number;
  failureRates: FailureRate[];
  /** Heartbeat uptime of the last 90 days (null below an hour of records), as GET /v1/public-stats reports it. */
  uptimePercent: number | null;
  uptimeDays: number;
}

/** What an operator looks at first: queue, workers, browsers, failures, uptime. Never cached. */
export async function getServiceStatus(ctx: ServiceContext): Promise<OperatorServiceStatus> {
  const now = ctx.clock();
  const since = new Date(now.getTime() - operatorStatusWindowMs);
  const [stats, [queue], [workers], failures, [finished]] = await Promise.all([
    computePublicStats(ctx),
    ctx.db.$queryRaw<{ queued: number; running: number }[]>`
      SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued, count(*) FILTER (WHERE status = 'running')::int AS running
        FROM render_jobs WHERE status IN ('queued', 'running')`,
    ctx.db.$queryRaw<{ seen: number; restarts: number }[]>`
      SELECT count(*) FILTER (WHERE last_seen_at >= ${new Date(now.getTime() - downtimeAfterMs)})::int AS seen,
             coalesce(sum(greatest(browser_launches - 1, 0)), 0)::int AS restarts
        FROM worker_instances WHERE last_seen_at >= ${since}`,
    // only a job's own failure (RenderError) writes error_category
    ctx.db.$queryRaw<{ category: FailureRate['category']; failed: number }[]>`
      SELECT error_category AS category, count(*)::int AS failed
        FROM render_jobs WHERE status = 'failed' AND finished_at >= ${since} AND error_category IS NOT NULL
       GROUP BY error_category ORDER BY error_category`,
    ctx.db.$queryRaw<{ finished: number }[]>`
      SELECT count(*)::int AS finished FROM render_jobs WHERE status IN ('succeeded', 'failed') AND finished_at >= ${since}`,
  ]);
  const finishedCount = finished?.finished ?? 0;
  return {
    status: stats.status,
    queued: queue?.queued ?? 0,
    running: queue?.running ?? 0,
    workersSeen: workers?.seen ?? 0,
    browserRestarts: workers?.restarts ?? 0,
    finishedLastHour: finishedCount,
    failureRates: failures.map(({ category, failed }) => ({ category, failed, rate: finishedCount > 0 ? failed / finishedCount : 0 })),
    uptimePercent: stats.uptimePercent,
    uptimeDays: stats.uptimeDays,
  };
}
