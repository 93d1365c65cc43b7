import { maxDeliveryLogEntries } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import type { WebhookAttemptRecord } from '../shared/records.ts';
import { deliveryLogRetentionMs } from './delivery-rules.ts';
import { findOwnedWebhook, type OwnedWebhook } from './owned-webhook.ts';

export type ListWebhookDeliveriesOptions = OwnedWebhook;

/** The 20 newest attempts of the last 30 days, tests included, in flight ones with a null status. */
export async function listWebhookDeliveries(ctx: ServiceContext, options: ListWebhookDeliveriesOptions): Promise<WebhookAttemptRecord[]> {
  const webhook = await findOwnedWebhook(ctx.db, options);
  const since = new Date(ctx.clock().getTime() - deliveryLogRetentionMs);
  return ctx.db.webhookAttempt.findMany({
    where: { webhookId: webhook.id, createdAt: { gte: since } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: maxDeliveryLogEntries,
  });
}
