import { type ServiceContext, type TaskName, type TaskPayload, taskCatalog } from '@svc/core';
import type { TaskList } from 'graphile-worker';
import { pruneAuthRecordsTask } from './tasks/auth-tasks.ts';
import { drainRenderGroupsTask } from './tasks/group-tasks.ts';
import { adaptLayoutTask } from './tasks/adapt-tasks.ts';
import { monthlyCreditReset } from './tasks/monthly-credit-reset.ts';
import { expireRenderFilesTask, recoverStaleRendersTask, renderThumbnailTask } from './tasks/render-tasks.ts';
import type { TaskHandlerContext } from './tasks/task-handler-context.ts';
import { recoverTemplateMessagesTask, templateMessageTask } from './tasks/template-message-tasks.ts';
import { pruneWebhookLogTask, recoverWebhookDeliveriesTask, webhookAttemptTask, webhookFanOutTask } from './tasks/webhook-tasks.ts';

type Handlers = { [N in TaskName]: (payload: TaskPayload<N>, context: TaskHandlerContext) => Promise<void> };

function handlers(): Handlers {
  return {
    monthly_credit_reset: monthlyCreditReset,
    recover_stale_renders: recoverStaleRendersTask,
    expire_render_files: expireRenderFilesTask,
    webhook_fan_out: webhookFanOutTask,
    webhook_attempt: webhookAttemptTask,
    recover_webhook_deliveries: recoverWebhookDeliveriesTask,
    prune_webhook_log: pruneWebhookLogTask,
    prune_auth_records: pruneAuthRecordsTask,
    drain_render_groups: drainRenderGroupsTask,
    render_thumbnail: renderThumbnailTask,
    adapt_layout: adaptLayoutTask,
    template_message: templateMessageTask,
    recover_template_messages: recoverTemplateMessagesTask,
  };
}

/** The catalog tasks with their handlers; the payload is parsed against the catalog schema on dequeue. */
export function buildTaskList(ctx: ServiceContext): TaskList {
  const handlerFor = handlers();
  const list: TaskList = {};
  for (const name of Object.keys(taskCatalog) as TaskName[]) {
    const handler = handlerFor[name] as (payload: unknown, context: TaskHandlerContext) => Promise<void>;
    list[name] = async (payload, helpers) => {
      const parsed = taskCatalog[name].payload.parse(payload);
      await handler(parsed, { ctx, helpers });
    };
  }
  return list;
}
