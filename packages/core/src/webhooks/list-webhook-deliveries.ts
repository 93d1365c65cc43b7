import { maxDeliveryLogEntries, type WebhookDeliveryList } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { deliveryLogRetentionMs } from './delivery-rules.ts';
import { toDeliveryView } from './webhook-attempt-view.ts';
import { findOwnedWebhook, type OwnedWebhook } from './webhook-view.ts';

export type ListWebhookDeliveriesOptions = OwnedWebhook;

/** The 20 newest attempts of the last 30 days, tests included, in flight ones with a null status. */
export async function listWebhookDeliveries(ctx: ServiceContext, options: ListWebhookDeliveriesOptions): Promise<WebhookDeliveryList> {
  const webhook = await findOwnedWebhook(ctx.db, options);
  const since = new Date(ctx.clock().getTime() - deliveryLogRetentionMs);
  const attempts = await ctx.db.webhookAttempt.findMany({
    where: { webhookId: webhook.id, createdAt: { gte: since } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: maxDeliveryLogEntries,
  });
  return { data: attempts.map(toDeliveryView) };
}
