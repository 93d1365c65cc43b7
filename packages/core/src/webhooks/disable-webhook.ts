import type { ServiceContext } from '../shared/context.ts';
import type { WebhookRecord } from '../shared/records.ts';
import { findOwnedWebhook, type OwnedWebhook } from './owned-webhook.ts';

export type DisableWebhookOptions = OwnedWebhook;

/**
 * Stops deliveries (disabled_reason owner_request). Repeating returns the same answer; a
 * destination already disabled after delivery failures keeps that reason.
 */
export async function disableWebhook(ctx: ServiceContext, options: DisableWebhookOptions): Promise<WebhookRecord> {
  const { accountId, webhookId } = options;
  await ctx.db.webhook.updateMany({
    where: { id: webhookId, accountId, status: 'enabled' },
    data: { status: 'disabled', disabledReason: 'owner_request' },
  });
  return findOwnedWebhook(ctx.db, options);
}
