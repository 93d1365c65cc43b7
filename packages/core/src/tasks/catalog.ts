import { z } from 'zod';

/**
 * Task priorities (graphile-worker runs the smallest number first; a job's priority is fixed
 * when it is enqueued). Priorities rather than queue names: a graphile-worker queue runs its
 * jobs one at a time, while a priority only orders what waits.
 * - interactive: work a person or a customer's system is waiting for (webhook deliveries,
 *   adapt requests, AI messages, the admission of group members when a slot frees);
 * - maintenance: the cron sweeps, behind interactive work.
 * Renders are not tasks: workers claim them from the render queue (renders/render-queue.ts),
 * single renders and group members with slots of their own.
 */
export const taskPriority = { interactive: 0, maintenance: 10 } as const;

/**
 * The background task catalog: name -> payload schema -> retry policy and default priority.
 * Light enough for the web app to import (no handlers here); handlers live in the worker,
 * which parses every payload again on dequeue.
 */
const cronPayload = z.object({ _cron: z.object({ ts: z.string(), backfilled: z.boolean().optional() }).optional() });

export const taskCatalog = {
  monthly_credit_reset: { payload: cronPayload, maxAttempts: 10, priority: taskPriority.maintenance },
  recover_stale_renders: { payload: cronPayload, maxAttempts: 3, priority: taskPriority.maintenance },
  expire_render_files: { payload: cronPayload, maxAttempts: 3, priority: taskPriority.maintenance },
  webhook_fan_out: { payload: z.object({ job_id: z.string() }), maxAttempts: 10, priority: taskPriority.interactive },
  webhook_attempt: { payload: z.object({ delivery_id: z.string() }), maxAttempts: 10, priority: taskPriority.interactive },
  recover_webhook_deliveries: { payload: cronPayload, maxAttempts: 3, priority: taskPriority.maintenance },
  prune_webhook_log: { payload: cronPayload, maxAttempts: 3, priority: taskPriority.maintenance },
  prune_auth_records: { payload: cronPayload, maxAttempts: 3, priority: taskPriority.maintenance },
  // a request waits seconds for it: one attempt, a retry would come after the caller gave up
  adapt_layout: { payload: z.object({ adapt_id: z.string() }), maxAttempts: 1, priority: taskPriority.interactive },
  template_message: { payload: z.object({ message_id: z.string() }), maxAttempts: 5, priority: taskPriority.interactive },
  recover_template_messages: { payload: cronPayload, maxAttempts: 3, priority: taskPriority.maintenance },
  // a succeeded PDF's first page for the dashboard's history, queued when the history first
  // shows the render (renders/request-render-thumbnails.ts), never by the render's finish
  render_thumbnail: { payload: z.object({ job_id: z.string() }), maxAttempts: 3, priority: taskPriority.maintenance },
  // admission of pending group members: every account (the sweep, at this priority), or one
  // account when a job of it ends (enqueued as interactive: a slot just freed)
  drain_render_groups: { payload: cronPayload.extend({ account_id: z.string().optional() }), maxAttempts: 5, priority: taskPriority.maintenance },
} as const;

export type TaskName = keyof typeof taskCatalog;
export type TaskPayload<N extends TaskName> = z.infer<(typeof taskCatalog)[N]['payload']>;

/** The queue key of an AI message's task: one task per message, whoever queues it. */
export const templateMessageTaskKey = (messageId: string) => `template-message:${messageId}`;

/**
 * Cron schedule (graphile-worker crontab syntax, UTC): the monthly reset at 00:00 on the 1st
 * with a day of backfill; every minute, renders whose worker vanished are taken up again
 * and files past retention are removed; webhook attempts whose worker vanished are sent again
 * every minute, pending group members are offered admission every minute (besides whenever a
 * job of their account ends), AI messages whose worker vanished are taken up again every
 * minute, and the delivery log is pruned hourly, as are sessions and sign-in links that ended
 * a month ago. Attempts and priority come from the
 * catalog, so a cron job runs under the same policy as an enqueued one.
 */
const schedule: { [N in TaskName]?: { cron: string; fill?: string } } = {
  monthly_credit_reset: { cron: '0 0 1 * *', fill: '1d' },
  recover_stale_renders: { cron: '* * * * *' },
  expire_render_files: { cron: '* * * * *' },
  recover_webhook_deliveries: { cron: '* * * * *' },
  prune_webhook_log: { cron: '17 * * * *' },
  prune_auth_records: { cron: '23 * * * *' },
  drain_render_groups: { cron: '* * * * *' },
  recover_template_messages: { cron: '* * * * *' },
};

export const crontab = Object.entries(schedule)
  .map(([name, entry]) => {
    const { maxAttempts, priority } = taskCatalog[name as TaskName];
    const fill = entry.fill ? `fill=${entry.fill}&` : '';
    return `${entry.cron} ${name} ?${fill}max=${maxAttempts}&priority=${priority}`;
  })
  .join('\n');
