import { enqueue } from '../tasks/enqueue.ts';
import type { ServiceContext } from '../shared/context.ts';
import { deliveryJobKey } from './delivery-rules.ts';
import { lockOwnedWebhook, type OwnedWebhook } from './owned-webhook.ts';

export type ReplayWebhookOptions = OwnedWebhook;

/**
 * Queues every failed event of the destination again (returns how many), with its original id and body and
 * a new round of eight attempts. Spends no credits. Tests are never replayed, and a
 * disabled destination replays nothing (deliveries are stopped; enable it first).
 */
export async function replayWebhook(ctx: ServiceContext, options: ReplayWebhookOptions): Promise<number> {
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const webhook = await lockOwnedWebhook(tx, options);
    if (webhook.status !== 'enabled') return 0;
    const replayed = await tx.$queryRaw<{ id: string }[]>`
      UPDATE webhook_deliveries
         SET state = 'scheduled', round = round + 1, attempts = 0, next_attempt_at = ${now}, finished_at = NULL, lease_expires_at = NULL
       WHERE webhook_id = ${webhook.id} AND NOT is_test AND state = 'failed'
      RETURNING id`;
    for (const { id } of replayed) await enqueue(tx, 'webhook_attempt', { delivery_id: id }, { jobKey: deliveryJobKey(id) });
    return replayed.length;
  });
}
