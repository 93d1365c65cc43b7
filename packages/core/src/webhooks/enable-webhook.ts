import type { ServiceContext } from '../shared/context.ts';
import type { WebhookRecord } from '../shared/records.ts';
import { findOwnedWebhook, type OwnedWebhook } from './owned-webhook.ts';

export type EnableWebhookOptions = OwnedWebhook;

/** Resumes deliveries of new events and resets the failure count; repeating returns the same answer. */
export async function enableWebhook(ctx: ServiceContext, options: EnableWebhookOptions): Promise<WebhookRecord> {
  const { accountId, webhookId } = options;
  await ctx.db.webhook.updateMany({
    where: { id: webhookId, accountId },
    data: { status: 'enabled', disabledReason: null, failureCount: 0 },
  });
  return findOwnedWebhook(ctx.db, options);
}
