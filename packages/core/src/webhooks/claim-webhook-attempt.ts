import { webhookAttemptIdPrefix } from '@svc/contracts';
import { enqueue } from '../tasks/enqueue.ts';
import type { ServiceContext } from '../shared/context.ts';
import { newId } from '../shared/ids.ts';
import { attemptLeaseMs, deliveryJobKey } from './delivery-rules.ts';
import { activeSecrets } from './webhook-secret.ts';
import { openSecret, secretsKeys, webhookSecretPlace } from '../settings/sealed-secrets.ts';

/** What one claimed attempt sends, and the fence its result is recorded under. */
export interface ClaimedAttempt {
  attemptId: string;
  deliveryId: string;
  webhookId: string;
  isTest: boolean;
  round: number;
  retryCount: number;
  /** when the delivery was made (its event): delivery lag counts from here */
  createdAt: Date;
  url: string;
  body: string;
  secrets: string[];
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_type: string;
  is_test: boolean;
  body: string;
  state: 'scheduled' | 'sending' | 'delivered' | 'failed';
  round: number;
  attempts: number;
  created_at: Date;
  next_attempt_at: Date | null;
  lease_expires_at: Date | null;
  url: string;
  status: 'enabled' | 'disabled';
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * Claims the next attempt of a delivery in one transaction: the attempt record is written
 * (one per delivery, round and retry number, so never twice) and the delivery is leased.
 * A delivery whose lease ran out (its worker died mid-send) is claimed again under the
 * same attempt record. Returns null when there is nothing to send now.
 */
export async function claimWebhookAttempt(ctx: ServiceContext, deliveryId: string): Promise<ClaimedAttempt | null> {
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<DeliveryRow[]>`
      SELECT d.id, d.webhook_id, d.event_type, d.is_test, d.body, d.state::text AS state, d.round, d.attempts,
             d.created_at, d.next_attempt_at, d.lease_expires_at, w.url, w.status::text AS status, w.secret, w.previous_secret,
             w.previous_secret_expires_at
        FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.id = ${deliveryId}
         FOR UPDATE OF d`;
    const delivery = rows[0];
    if (!delivery) return null; // the destination was deleted
    if (delivery.state === 'delivered' || delivery.state === 'failed') return null;
    if (delivery.state === 'sending' && delivery.lease_expires_at && delivery.lease_expires_at > now) return null;
    if (delivery.state === 'scheduled' && delivery.next_attempt_at && delivery.next_attempt_at > now) {
      // woken early (clocks differ): come back when it is due
      await enqueue(tx, 'webhook_attempt', { delivery_id: delivery.id }, { runAt: delivery.next_attempt_at, jobKey: deliveryJobKey(delivery.id) });
      return null;
    }
    if (!delivery.is_test && delivery.status !== 'enabled') {
      // deliveries stop while disabled; the event waits for a replay
      await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { state: 'failed', finishedAt: now, nextAttemptAt: null, leaseExpiresAt: null } });
      return null;
    }
    await tx.webhookAttempt.createMany({
      data: [
        {
          id: newId(webhookAttemptIdPrefix),
          deliveryId: delivery.id,
          webhookId: delivery.webhook_id,
          eventType: delivery.event_type,
          isTest: delivery.is_test,
          round: delivery.round,
          retryCount: delivery.attempts,
          createdAt: now,
        },
      ],
      skipDuplicates: true,
    });
    const attempt = await tx.webhookAttempt.findUniqueOrThrow({
      where: { deliveryId_round_retryCount: { deliveryId: delivery.id, round: delivery.round, retryCount: delivery.attempts } },
      select: { id: true },
    });
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: { state: 'sending', leaseExpiresAt: new Date(now.getTime() + attemptLeaseMs) },
    });
    const keys = secretsKeys(ctx.config.secrets);
    const place = webhookSecretPlace(delivery.webhook_id);
    return {
      attemptId: attempt.id,
      deliveryId: delivery.id,
      webhookId: delivery.webhook_id,
      isTest: delivery.is_test,
      round: delivery.round,
      retryCount: delivery.attempts,
      createdAt: delivery.created_at,
      url: delivery.url,
      body: delivery.body,
      secrets: activeSecrets(
        {
          secret: openSecret(keys, delivery.secret, place),
          previousSecret: delivery.previous_secret === null ? null : openSecret(keys, delivery.previous_secret, place),
          previousSecretExpiresAt: delivery.previous_secret_expires_at,
        },
        now,
      ),
    };
  });
}
