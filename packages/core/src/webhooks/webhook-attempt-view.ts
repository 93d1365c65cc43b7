import type { WebhookDelivery, WebhookEventType } from '@svc/contracts';
import type { WebhookAttempt } from '@svc/db';

/** Statuses outside 200..599 are not HTTP answers the contract can show; they read as null. */
export function visibleStatus(statusCode: number | null): number | null {
  return statusCode !== null && statusCode >= 200 && statusCode <= 599 ? statusCode : null;
}

export function toDeliveryView(attempt: WebhookAttempt): WebhookDelivery {
  return {
    id: attempt.id,
    event: attempt.eventType as WebhookEventType,
    created_at: attempt.createdAt.toISOString(),
    status_code: visibleStatus(attempt.statusCode),
    is_test: attempt.isTest,
    retry_count: attempt.retryCount,
  };
}
