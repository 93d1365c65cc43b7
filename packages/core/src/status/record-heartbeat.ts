import type { ServiceContext } from '../shared/context.ts';
import { uptimeWindowDays } from './status-rules.ts';

export type HeartbeatComponent = 'web' | 'worker';

/**
 * Records that this process is alive in the current minute (once per component and minute,
 * however many instances run). The worker also drops heartbeats older than the uptime window.
 */
export async function recordHeartbeat(ctx: ServiceContext, component: HeartbeatComponent): Promise<void> {
  const now = ctx.clock();
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  await ctx.db.$executeRaw`INSERT INTO heartbeats (component, minute) VALUES (${component}, ${minute}) ON CONFLICT DO NOTHING`;
  if (component === 'worker' && minute.getUTCMinutes() === 0) {
    await ctx.db.$executeRaw`DELETE FROM heartbeats WHERE minute < ${new Date(now.getTime() - (uptimeWindowDays + 1) * 86_400_000)}`;
  }
}

/** Records a heartbeat now and then every minute until the returned function is called. */
export function startHeartbeat(ctx: ServiceContext, component: HeartbeatComponent): () => void {
  const beat = () => recordHeartbeat(ctx, component).catch((error: unknown) => ctx.logger.warn('heartbeat failed', { error: String(error) }));
  void beat();
  const timer = setInterval(beat, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
