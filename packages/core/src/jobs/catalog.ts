import { z } from 'zod';

/**
 * The background task catalog: name -> payload schema -> retry policy.
 * Light enough for the web app to import (no handlers here); handlers live in the worker,
 * which parses every payload again on dequeue.
 */
const cronPayload = z.object({ _cron: z.object({ ts: z.string(), backfilled: z.boolean().optional() }).optional() });

export const taskCatalog = {
  monthly_credit_reset: { payload: cronPayload, maxAttempts: 10 },
  render_job: { payload: z.object({ job_id: z.string() }), maxAttempts: 5 },
  recover_stale_renders: { payload: cronPayload, maxAttempts: 3 },
  expire_render_files: { payload: cronPayload, maxAttempts: 3 },
  webhook_fan_out: { payload: z.object({ job_id: z.string() }), maxAttempts: 10 },
  webhook_attempt: { payload: z.object({ delivery_id: z.string() }), maxAttempts: 10 },
  recover_webhook_deliveries: { payload: cronPayload, maxAttempts: 3 },
  prune_webhook_log: { payload: cronPayload, maxAttempts: 3 },
} as const;

export type TaskName = keyof typeof taskCatalog;
export type TaskPayload<N extends TaskName> = z.infer<(typeof taskCatalog)[N]['payload']>;

/**
 * Cron schedule (graphile-worker crontab syntax, UTC): the monthly reset at 00:00 on the 1st
 * with a day of backfill; every minute, renders whose worker vanished are taken up again
 * and files past retention are removed; webhook attempts whose worker vanished are sent again
 * every minute, and the delivery log is pruned hourly.
 */
export const crontab = [
  '0 0 1 * * monthly_credit_reset ?fill=1d&max=10',
  '* * * * * recover_stale_renders',
  '* * * * * expire_render_files',
  '* * * * * recover_webhook_deliveries',
  '17 * * * * prune_webhook_log',
].join('\n');
