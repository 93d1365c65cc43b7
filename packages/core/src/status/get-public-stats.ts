import type { Db } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { listStarters } from '../starters/list-starters.ts';
import {
  degradedBacklogShare,
  degradedFailureShare,
  downtimeAfterMs,
  failureSampleMinimum,
  failureWindowMs,
  maintenanceSettingKey,
  minimumUptimeMinutes,
  publicStatsCacheMs,
  uptimeWindowDays,
} from './status-rules.ts';

export type ServiceStatus = 'operational' | 'degraded' | 'downtime' | 'maintenance' | 'unavailable';

export interface PublicStats {
  rendersServed: number;
  galleryTemplates: number;
  uptimePercent: number | null;
  uptimeDays: number;
  status: ServiceStatus;
}

const cache = new WeakMap<Db, { at: number; stats: PublicStats }>();

/** The public statistics, computed at most once per five minutes per process (and database client). */
export async function getPublicStats(ctx: ServiceContext): Promise<PublicStats> {
  const now = ctx.clock().getTime();
  const cached = cache.get(ctx.db);
  if (cached && now - cached.at < publicStatsCacheMs) return cached.stats;
  const stats = await computePublicStats(ctx);
  cache.set(ctx.db, { at: now, stats });
  return stats;
}

/**
 * The statistics from a few indexed queries: succeeded renders, heartbeat minutes of the last
 * 90 days, the queue and recent failures, and the operator's maintenance switch. When the
 * database does not answer, the status is unavailable and the figures are empty.
 */
export async function computePublicStats(ctx: ServiceContext): Promise<PublicStats> {
  const now = ctx.clock();
  try {
    const windowStart = new Date(now.getTime() - uptimeWindowDays * 86_400_000);
    const [[renders], [uptime], [recent], maintenance] = await Promise.all([
      ctx.db.$queryRaw<{ served: bigint }[]>`SELECT count(*) AS served FROM render_jobs WHERE status = 'succeeded'`,
      ctx.db.$queryRaw<{ first: Date | null; up: bigint; worker_last: Date | null }[]>`
        SELECT min(minute) AS first,
               count(*) FILTER (WHERE components = 2) AS up,
               max(minute) FILTER (WHERE has_worker) AS worker_last
          FROM (SELECT minute, count(DISTINCT component) AS components, bool_or(component = 'worker') AS has_worker
                  FROM heartbeats WHERE minute >= ${windowStart} AND minute <= ${now} GROUP BY minute) AS minutes`,
      ctx.db.$queryRaw<{ queued: bigint; finished: bigint; failed: bigint }[]>`
        SELECT (SELECT count(*) FROM render_jobs WHERE status = 'queued') AS queued,
               count(*) AS finished,
               count(*) FILTER (WHERE status = 'failed' AND error_category IN ('timeout', 'renderer_failure', 'internal_failure')) AS failed
          FROM render_jobs WHERE status IN ('succeeded', 'failed') AND finished_at >= ${new Date(now.getTime() - failureWindowMs)}`,
      ctx.db.serviceSetting.findUnique({ where: { key: maintenanceSettingKey } }),
    ]);
    const recordedMinutes = uptime?.first ? Math.floor((now.getTime() - uptime.first.getTime()) / 60_000) + 1 : 0;
    const up = Number(uptime?.up ?? 0);
    const finished = Number(recent?.finished ?? 0);
    const failed = Number(recent?.failed ?? 0);
    let status: ServiceStatus = 'operational';
    if (maintenance?.value === 'on') status = 'maintenance';
    else if (!uptime?.worker_last || now.getTime() - uptime.worker_last.getTime() > downtimeAfterMs + 60_000) status = 'downtime';
    else if (
      Number(recent?.queued ?? 0) > ctx.config.maxRenderBacklog * degradedBacklogShare ||
      (finished >= failureSampleMinimum && failed / finished > degradedFailureShare)
    ) status = 'degraded';
    return {
      rendersServed: Number(renders?.served ?? 0),
      galleryTemplates: listStarters().length,
      uptimePercent: recordedMinutes < minimumUptimeMinutes ? null : Math.min(100, Math.round((up / recordedMinutes) * 100_000) / 1000),
      uptimeDays: Math.floor(recordedMinutes / 1440),
      status,
    };
  } catch (error) {
    ctx.logger.warn('public stats unavailable', { error: error instanceof Error ? error.message : String(error) });
    return { rendersServed: 0, galleryTemplates: listStarters().length, uptimePercent: null, uptimeDays: 0, status: 'unavailable' };
  }
}
