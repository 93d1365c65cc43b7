import type { WebhookEventType } from '@svc/contracts';
import type { ServiceConfig } from '../shared/config.ts';

export interface EventJob {
  id: string;
  kind: 'pdf' | 'image';
}

const stateOf: Record<WebhookEventType, 'succeeded' | 'failed' | 'cancelled'> = {
  'render.succeeded': 'succeeded',
  'render.failed': 'failed',
  'render.cancelled': 'cancelled',
};

/**
 * The event body (the delivery contract's body fields), as the exact text every attempt of the event sends. The job
 * url is the job's status route; the receiver reads it with its own key.
 */
export function eventBody(config: ServiceConfig, event: { id: string; type: WebhookEventType; createdAt: Date }, job: EventJob): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    data: { job: { id: job.id, state: stateOf[event.type], output: job.kind, url: `${config.publicUrl}/v1/${job.kind}/${job.id}` } },
  });
}

/** The job a test event names: no render exists with this id, so reading its url answers 404. */
export const sampleJob: EventJob = { id: `pdf_${'0'.repeat(32)}`, kind: 'pdf' };
