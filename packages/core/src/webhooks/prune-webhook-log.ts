import type { ServiceContext } from '../shared/context.ts';
import { deliveryLogRetentionMs } from './delivery-rules.ts';

/**
 * Removes attempt records, and finished deliveries, older than 30 days. A failed event
 * can therefore be replayed for 30 days after its last attempt.
 */
export async function pruneWebhookLog(ctx: ServiceContext): Promise<{ attempts: number; deliveries: number }> {
  const cutoff = new Date(ctx.clock().getTime() - deliveryLogRetentionMs);
  const attempts = await ctx.db.webhookAttempt.deleteMany({ where: { createdAt: { lt: cutoff } } });
  const deliveries = await ctx.db.webhookDelivery.deleteMany({ where: { state: { in: ['delivered', 'failed'] }, finishedAt: { lt: cutoff } } });
  return { attempts: attempts.count, deliveries: deliveries.count };
}
