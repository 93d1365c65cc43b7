import { enqueue } from '../tasks/enqueue.ts';
import { spendRateToken } from '../limits/rate-limit.ts';
import type { ServiceMetrics } from '../ports/metrics.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { ClaimedAttempt } from './claim-webhook-attempt.ts';
import { deliveryJobKey, failuresToDisable, nextAttemptAt } from './delivery-rules.ts';
import type { WebhookRequestResult } from './send-webhook-request.ts';

/**
 * Records the result of a claimed attempt in one transaction: the attempt record, the
 * delivery's next step (delivered, the next retry queued at its time, or failed), and the
 * destination's counters. The attempt and delivery updates are fenced on the claim, so a
 * result arriving after recovery took the attempt over changes nothing.
 */
export async function recordWebhookAttempt(ctx: ServiceContext, claim: ClaimedAttempt, result: WebhookRequestResult): Promise<void> {
  const now = ctx.clock();
  const delivered = result.failure === null;
  const recorded = await ctx.db.$transaction(async (tx) => {
    const finished = await tx.webhookAttempt.updateMany({
      where: { id: claim.attemptId, finishedAt: null },
      data: { statusCode: result.statusCode, failure: result.failure, finishedAt: now },
    });
    if (finished.count === 0) return false;
    const attemptsMade = claim.retryCount + 1;
    const next = delivered || claim.isTest ? null : nextAttemptAt(attemptsMade, now);
    const moved = await tx.webhookDelivery.updateMany({
      where: { id: claim.deliveryId, state: 'sending', round: claim.round, attempts: claim.retryCount },
      data: {
        attempts: attemptsMade,
        leaseExpiresAt: null,
        nextAttemptAt: next,
        state: delivered ? 'delivered' : next ? 'scheduled' : 'failed',
        finishedAt: next ? null : now,
      },
    });
    if (moved.count === 0) return false;
    if (next) await enqueue(tx, 'webhook_attempt', { delivery_id: claim.deliveryId }, { runAt: next, jobKey: deliveryJobKey(claim.deliveryId) });
    if (claim.isTest) {
      await tx.webhook.updateMany({ where: { id: claim.webhookId }, data: { lastDeliveryAt: now } });
      await spendRateToken(tx, 'webhook_test', claim.webhookId, now);
    } else if (delivered) {
      await tx.webhook.updateMany({ where: { id: claim.webhookId }, data: { lastDeliveryAt: now, failureCount: 0 } });
    } else {
      // one statement under the row lock: concurrent failures count one by one, and only
      // the failure that reaches the limit on an enabled destination disables it (the count
      // is reset on enable, so reaching exactly the limit with that reason marks the moment)
      const rows = await tx.$queryRaw<{ disabled_now: boolean }[]>`
        UPDATE webhooks w SET
               last_delivery_at = ${now},
               failure_count = w.failure_count + 1,
               status = CASE WHEN w.status = 'enabled' AND w.failure_count + 1 >= ${failuresToDisable} THEN 'disabled'::"WebhookStatus" ELSE w.status END,
               disabled_reason = CASE WHEN w.status = 'enabled' AND w.failure_count + 1 >= ${failuresToDisable}
                                      THEN 'delivery_failure'::"WebhookDisabledReason" ELSE w.disabled_reason END
         WHERE w.id = ${claim.webhookId}
        RETURNING w.failure_count = ${failuresToDisable} AND w.disabled_reason = 'delivery_failure' AS disabled_now`;
      if (rows[0]?.disabled_now) ctx.logger.warn('webhook destination disabled after consecutive delivery failures', { webhookId: claim.webhookId });
    }
    return true;
  });
  if (recorded) countAttempt(ctx.metrics, claim, result, now);
}

function countAttempt(metrics: ServiceMetrics, claim: ClaimedAttempt, result: WebhookRequestResult, now: Date): void {
  metrics.webhookAttempts.inc({ outcome: result.failure === null ? 'delivered' : 'failed', failure: result.failure ?? 'none' });
  if (result.failure === null && !claim.isTest) metrics.webhookDeliveryLag.observe((now.getTime() - claim.createdAt.getTime()) / 1000);
}
