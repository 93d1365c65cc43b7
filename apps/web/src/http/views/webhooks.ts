import type { Webhook, WebhookDelivery, WebhookEventType, WebhookWithSecret as WebhookWithSecretBody } from '@svc/contracts';
import { visibleStatus, type WebhookAttemptRecord, type WebhookRecord, type WebhookWithSecret } from '@svc/core';

/** The public shape of a destination (the contract's webhook resource); an overlap that has ended shows as null. */
export function webhookBody(webhook: WebhookRecord, now: Date): Webhook {
  const overlap = webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > now ? webhook.previousSecretExpiresAt : null;
  return {
    id: webhook.id,
    url: webhook.url,
    events: [...webhook.events].sort() as WebhookEventType[],
    status: webhook.status,
    disabled_reason: webhook.disabledReason,
    display_prefix: webhook.displayPrefix,
    last_delivery_at: webhook.lastDeliveryAt?.toISOString() ?? null,
    failure_count: webhook.failureCount,
    created_at: webhook.createdAt.toISOString(),
    previous_secret_expires_at: overlap?.toISOString() ?? null,
  };
}

export function webhookWithSecretBody({ webhook, secret }: WebhookWithSecret, now: Date): WebhookWithSecretBody {
  return { ...webhookBody(webhook, now), secret };
}

/** One entry of the delivery log: an attempt, tests included; in flight ones have a null status. */
export function deliveryBody(attempt: WebhookAttemptRecord): WebhookDelivery {
  return {
    id: attempt.id,
    event: attempt.eventType as WebhookEventType,
    created_at: attempt.createdAt.toISOString(),
    status_code: visibleStatus(attempt.statusCode),
    is_test: attempt.isTest,
    retry_count: attempt.retryCount,
  };
}
