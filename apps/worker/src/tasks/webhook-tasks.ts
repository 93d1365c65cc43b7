import { fanOutRenderEvent, pruneWebhookLog, recoverWebhookDeliveries, runWebhookAttempt, type TaskPayload } from '@svc/core';
import type { TaskHandlerContext } from './task-handler-context.ts';

export async function webhookFanOutTask(payload: TaskPayload<'webhook_fan_out'>, { ctx }: TaskHandlerContext) {
  await fanOutRenderEvent(ctx, { jobId: payload.job_id });
}

export async function webhookAttemptTask(payload: TaskPayload<'webhook_attempt'>, { ctx }: TaskHandlerContext) {
  await runWebhookAttempt(ctx, { deliveryId: payload.delivery_id });
}

export async function recoverWebhookDeliveriesTask(_payload: TaskPayload<'recover_webhook_deliveries'>, { ctx }: TaskHandlerContext) {
  await recoverWebhookDeliveries(ctx);
}

export async function pruneWebhookLogTask(_payload: TaskPayload<'prune_webhook_log'>, { ctx }: TaskHandlerContext) {
  const pruned = await pruneWebhookLog(ctx);
  if (pruned.attempts + pruned.deliveries > 0) ctx.logger.info('webhook delivery log pruned', pruned);
}
