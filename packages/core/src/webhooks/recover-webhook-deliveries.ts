import { enqueue } from '../tasks/enqueue.ts';
import type { ServiceContext } from '../shared/context.ts';
import { deliveryJobKey } from './delivery-rules.ts';

/** A scheduled attempt this late has lost its queue entry (its task gave up); queue it again. */
const overdueMs = 10 * 60_000;

/**
 * Takes up attempts whose worker vanished mid-send (the lease ran out): each gets a fresh
 * task, whose claim resends the same attempt record with the same event id. Runs at
 * worker start and every minute.
 */
export async function recoverWebhookDeliveries(ctx: ServiceContext): Promise<number> {
  const now = ctx.clock();
  const stuck = await ctx.db.webhookDelivery.findMany({
    where: {
      OR: [
        { state: 'sending', leaseExpiresAt: { lt: now } },
        { state: 'scheduled', nextAttemptAt: { lt: new Date(now.getTime() - overdueMs) } },
      ],
    },
    select: { id: true },
    take: 500,
  });
  for (const { id } of stuck) await enqueue(ctx.db, 'webhook_attempt', { delivery_id: id }, { jobKey: deliveryJobKey(id) });
  if (stuck.length > 0) ctx.logger.warn('webhook attempts taken up again after a lost worker', { count: stuck.length });
  return stuck.length;
}
