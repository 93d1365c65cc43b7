import { enqueue } from '../tasks/enqueue.ts';
import { checkRateToken } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { newId } from '../shared/ids.ts';
import { deliveryJobKey, visibleStatus } from './delivery-rules.ts';
import { eventBody, sampleJob } from './event-body.ts';
import { lockOwnedWebhook, type OwnedWebhook } from './owned-webhook.ts';

/** How long the request waits for the attempt: the receiver's 10 s and room for the queue. */
export const testWaitMs = 12_000;
const testPollMs = 150;

export interface TestWebhookOptions extends OwnedWebhook {
  waitMs?: number;
}

export interface TestWebhookResult {
  /** Whether the attempt finished within the wait; if not, it is still queued or in flight. */
  finished: boolean;
  /** The receiver's answer (null when none, or none the contract can show). */
  statusCode: number | null;
  delivered: boolean;
}

/**
 * Sends a sample render.succeeded through the worker (no credits, no render; disabled
 * destinations too). One test per destination waits at a time: asking again while it
 * waits reports that one. Completed tests are limited to one per minute.
 */
export async function testWebhook(ctx: ServiceContext, options: TestWebhookOptions): Promise<TestWebhookResult> {
  const now = ctx.clock();
  const deliveryId = await ctx.db.$transaction(async (tx) => {
    // the row lock makes "one waiting test" and the minute limit hold under concurrent requests
    const webhook = await lockOwnedWebhook(tx, options);
    const waiting = await tx.webhookDelivery.findFirst({
      where: { webhookId: webhook.id, isTest: true, state: { in: ['scheduled', 'sending'] } },
      select: { id: true },
    });
    if (waiting) return waiting.id;
    // a test's token is spent when it completes (recordWebhookAttempt): the limit counts completed tests
    await checkRateToken(tx, 'webhook_test', webhook.id, now);
    const eventId = newId('evt_');
    const delivery = await tx.webhookDelivery.create({
      data: {
        id: newId('whd_'),
        webhookId: webhook.id,
        eventId,
        eventType: 'render.succeeded',
        isTest: true,
        body: eventBody(ctx.config, { id: eventId, type: 'render.succeeded', createdAt: now }, sampleJob),
        nextAttemptAt: now,
        createdAt: now,
      },
    });
    await enqueue(tx, 'webhook_attempt', { delivery_id: delivery.id }, { jobKey: deliveryJobKey(delivery.id) });
    return delivery.id;
  });
  return waitForTest(ctx, deliveryId, options.waitMs ?? testWaitMs);
}

async function waitForTest(ctx: ServiceContext, deliveryId: string, waitMs: number): Promise<TestWebhookResult> {
  for (let waited = 0; ; waited += testPollMs) {
    const delivery = await ctx.db.webhookDelivery.findUnique({
      where: { id: deliveryId },
      select: { state: true, attemptRecords: { orderBy: { createdAt: 'desc' }, take: 1, select: { statusCode: true } } },
    });
    if (delivery && (delivery.state === 'delivered' || delivery.state === 'failed')) {
      return { finished: true, statusCode: visibleStatus(delivery.attemptRecords[0]?.statusCode ?? null), delivered: delivery.state === 'delivered' };
    }
    if (!delivery || waited >= waitMs) return { finished: false, statusCode: null, delivered: false };
    await new Promise((resolve) => setTimeout(resolve, testPollMs));
  }
}
