import { type WebhookEventType, webhookEventTypes } from '@svc/contracts';
import { enqueue } from '../tasks/enqueue.ts';
import type { ServiceContext } from '../shared/context.ts';
import { newId } from '../shared/ids.ts';
import { deliveryJobKey } from './delivery-rules.ts';
import { eventBody } from './event-body.ts';
import { listeningWebhooks } from './listening-webhooks.ts';

export interface FanOutRenderEventOptions {
  jobId: string;
}

/**
 * Turns the terminal event of a render job into one delivery per enabled destination that
 * selected its kind, each with its first attempt queued in the same transaction. Safe to
 * run again: a (destination, event) pair gets one delivery only.
 */
export async function fanOutRenderEvent(ctx: ServiceContext, { jobId }: FanOutRenderEventOptions): Promise<number> {
  return ctx.db.$transaction(async (tx) => {
    const events = await tx.renderEvent.findMany({ where: { jobId }, include: { job: { select: { id: true, kind: true } } } });
    let created = 0;
    for (const event of events) {
      const type = event.type as WebhookEventType;
      if (!webhookEventTypes.includes(type)) continue;
      const webhooks = await tx.$queryRaw<{ id: string }[]>(listeningWebhooks(event.accountId, type));
      if (webhooks.length === 0) continue;
      const body = eventBody(ctx.config, { id: event.id, type, createdAt: event.createdAt }, event.job);
      const now = ctx.clock();
      const deliveries = await tx.webhookDelivery.createManyAndReturn({
        data: webhooks.map((webhook) => ({
          id: newId('whd_'),
          webhookId: webhook.id,
          eventId: event.id,
          eventType: type,
          body,
          nextAttemptAt: now,
          createdAt: now,
        })),
        skipDuplicates: true,
        select: { id: true },
      });
      for (const delivery of deliveries) await enqueue(tx, 'webhook_attempt', { delivery_id: delivery.id }, { jobKey: deliveryJobKey(delivery.id) });
      created += deliveries.length;
    }
    return created;
  });
}
