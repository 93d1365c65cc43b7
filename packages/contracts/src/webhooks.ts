import { z } from 'zod';
import { distinctItems, idSchema, NoQuery, Timestamp } from './common.ts';
import { defineOperation, jsonBodyErrors, type Operation } from './operation.ts';
import { named } from './registry.ts';

export const webhookIdPrefix = 'wh_';
export const webhookAttemptIdPrefix = 'wa_';
export const WebhookId = idSchema(webhookIdPrefix);
export const webhookSecretPattern = /^svc_whsec_[0-9a-f]{64}$/;
/** Webhook create bodies are at most 16 KiB (the contract's limits). */
export const webhookBodyLimit = 16 * 1024;
export const maxWebhooks = 10;
export const maxWebhookUrlLength = 2048;
export const maxDeliveryLogEntries = 20;

export const webhookEventTypes = ['render.cancelled', 'render.failed', 'render.succeeded'] as const;
export const WebhookEventType = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const NewWebhook = named(
  'NewWebhook',
  z.strictObject({
    // the egress policy refuses other schemes with url.scheme_not_https; URL parsing lowercases the scheme
    url: z.string().max(maxWebhookUrlLength).meta({
      format: 'uri',
      pattern: '^[Hh][Tt][Tt][Pp][Ss]:',
      description:
        'https on port 443, no credentials, a host that resolves only to public addresses. A refusal answers 400 with ' +
        'the field url.<policy code> in details, e.g. url.private_address.',
    }),
    events: distinctItems(z.array(WebhookEventType).min(1).max(3), 'duplicate events')
      .optional()
      .meta({ description: 'Omitted selects all three.' }),
  }),
);
export type NewWebhook = z.infer<typeof NewWebhook>;

const webhookFields = {
  id: WebhookId,
  url: z.string(),
  events: z.array(WebhookEventType).min(1).max(3).meta({ description: 'Sorted and distinct.' }),
  status: z.enum(['enabled', 'disabled']),
  disabled_reason: z.enum(['owner_request', 'delivery_failure']).nullable(),
  display_prefix: z.string().meta({ description: 'The first characters of the signing secret.' }),
  last_delivery_at: Timestamp.nullable().meta({ description: 'Last attempt, tests included.' }),
  failure_count: z.int().min(0).meta({ description: 'Consecutive failed attempts of normal deliveries; a success or enable resets it.' }),
  created_at: Timestamp,
  previous_secret_expires_at: Timestamp.nullable().meta({ description: 'End of the rotation overlap; null outside one.' }),
};

export const Webhook = named('Webhook', z.strictObject(webhookFields));
export type Webhook = z.infer<typeof Webhook>;

export const WebhookWithSecret = named(
  'WebhookWithSecret',
  z.strictObject({ ...webhookFields, secret: z.string().regex(webhookSecretPattern) }),
);
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

export const WebhookList = named('WebhookList', z.strictObject({ data: z.array(Webhook).max(maxWebhooks) }));
export type WebhookList = z.infer<typeof WebhookList>;

export const WebhookReplay = named('WebhookReplay', z.strictObject({ replayed: z.int().min(0) }));
export type WebhookReplay = z.infer<typeof WebhookReplay>;

export const WebhookTest = named(
  'WebhookTest',
  z.strictObject({ status_code: z.int().min(200).max(599).nullable(), delivered: z.boolean() }),
);
export type WebhookTest = z.infer<typeof WebhookTest>;

export const WebhookDelivery = named(
  'WebhookDelivery',
  z.strictObject({
    id: idSchema(webhookAttemptIdPrefix),
    event: WebhookEventType,
    created_at: Timestamp,
    status_code: z.int().min(200).max(599).nullable().meta({ description: 'Null when no HTTP status was received (or still in flight).' }),
    is_test: z.boolean(),
    retry_count: z.int().min(0).max(7),
  }),
);
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = named(
  'WebhookDeliveryList',
  z.strictObject({ data: z.array(WebhookDelivery).max(maxDeliveryLogEntries) }),
);
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

const WebhookPath = z.strictObject({ webhook_id: WebhookId });
const tag = 'Webhooks';

export const createWebhookOperation = defineOperation({
  operationId: 'createWebhook',
  method: 'post',
  path: '/v1/webhooks',
  tag,
  summary: 'Create a webhook destination',
  description: 'The signing secret is returned only here and on rotation. An account holds at most ten destinations.',
  auth: 'bearer',
  body: { schema: NewWebhook, maxBytes: webhookBodyLimit },
  responses: { 201: { description: 'The enabled destination with its signing secret', schema: WebhookWithSecret } },
  errors: [...jsonBodyErrors, 'webhook_limit_reached'],
});

export const listWebhooksOperation = defineOperation({
  operationId: 'listWebhooks',
  method: 'get',
  path: '/v1/webhooks',
  tag,
  summary: 'List webhook destinations, most recently created first (never paged)',
  auth: 'bearer',
  query: NoQuery,
  responses: { 200: { description: 'Every destination of the account', schema: WebhookList } },
  errors: [],
});

export const getWebhookOperation = defineOperation({
  operationId: 'getWebhook',
  method: 'get',
  path: '/v1/webhooks/{webhook_id}',
  tag,
  summary: 'A webhook destination',
  auth: 'bearer',
  query: NoQuery,
  params: WebhookPath,
  responses: { 200: { description: 'The destination', schema: Webhook } },
  errors: ['not_found'],
});

export const deleteWebhookOperation = defineOperation({
  operationId: 'deleteWebhook',
  method: 'delete',
  path: '/v1/webhooks/{webhook_id}',
  tag,
  summary: 'Delete a webhook destination',
  description: 'Deliveries stop and undelivered events are dropped.',
  auth: 'bearer',
  params: WebhookPath,
  responses: { 204: { description: 'Deleted' } },
  errors: ['not_found'],
});

export const rotateWebhookSecretOperation = defineOperation({
  operationId: 'rotateWebhookSecret',
  method: 'post',
  path: '/v1/webhooks/{webhook_id}/rotate',
  tag,
  summary: 'Rotate the signing secret',
  description:
    'The new secret signs at once; the previous one keeps signing for 24 hours. Rotating again during an overlap ' +
    'replaces the previous secret immediately.',
  auth: 'bearer',
  params: WebhookPath,
  responses: { 200: { description: 'The destination with its new secret', schema: WebhookWithSecret } },
  errors: ['not_found'],
});

export const disableWebhookOperation = defineOperation({
  operationId: 'disableWebhook',
  method: 'post',
  path: '/v1/webhooks/{webhook_id}/disable',
  tag,
  summary: 'Disable a destination (disabled_reason owner_request); repeating returns the same answer',
  auth: 'bearer',
  params: WebhookPath,
  responses: { 200: { description: 'The destination', schema: Webhook } },
  errors: ['not_found'],
});

export const enableWebhookOperation = defineOperation({
  operationId: 'enableWebhook',
  method: 'post',
  path: '/v1/webhooks/{webhook_id}/enable',
  tag,
  summary: 'Enable a destination and reset its failure count; repeating returns the same answer',
  auth: 'bearer',
  params: WebhookPath,
  responses: { 200: { description: 'The destination', schema: Webhook } },
  errors: ['not_found'],
});

export const replayWebhookOperation = defineOperation({
  operationId: 'replayWebhook',
  method: 'post',
  path: '/v1/webhooks/{webhook_id}/replay',
  tag,
  summary: 'Send failed events again with their original ids',
  description: 'Each replayed event gets a new round of eight attempts. Spends no credits. A disabled destination replays nothing.',
  auth: 'bearer',
  params: WebhookPath,
  responses: { 200: { description: 'How many events were queued again', schema: WebhookReplay } },
  errors: ['not_found'],
});

export const testWebhookOperation = defineOperation({
  operationId: 'testWebhook',
  method: 'post',
  path: '/v1/webhooks/{webhook_id}/test',
  tag,
  summary: 'Send a sample render.succeeded event',
  description:
    'Spends no credits and creates no render; disabled destinations may be tested. One test per destination waits at a ' +
    'time (a repeat while it waits answers 202 for it); completed tests are limited to one per minute (429 with Retry-After). ' +
    'Answers 200 when the attempt finished within the wait, else 202.',
  auth: 'bearer_or_session',
  params: WebhookPath,
  responses: {
    200: { description: 'The attempt finished', schema: WebhookTest },
    202: { description: 'The attempt is still queued or in flight', schema: WebhookTest },
  },
  errors: ['not_found', 'rate_limited'],
});

export const listWebhookDeliveriesOperation = defineOperation({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/v1/webhooks/{webhook_id}/deliveries',
  tag,
  summary: 'The 20 newest delivery attempts of the last 30 days (no bodies)',
  auth: 'bearer_or_session',
  query: NoQuery,
  params: WebhookPath,
  responses: { 200: { description: 'Newest first', schema: WebhookDeliveryList } },
  errors: ['not_found'],
});

export const webhookOperationList: readonly Operation[] = [
  createWebhookOperation,
  listWebhooksOperation,
  getWebhookOperation,
  deleteWebhookOperation,
  rotateWebhookSecretOperation,
  disableWebhookOperation,
  enableWebhookOperation,
  replayWebhookOperation,
  testWebhookOperation,
  listWebhookDeliveriesOperation,
];
