import {
  createWebhookOperation,
  deleteWebhookOperation,
  disableWebhookOperation,
  enableWebhookOperation,
  getWebhookOperation,
  listWebhookDeliveriesOperation,
  listWebhooksOperation,
  replayWebhookOperation,
  rotateWebhookSecretOperation,
  testWebhookOperation,
} from '@svc/contracts';
import {
  createWebhook,
  deleteWebhook,
  disableWebhook,
  enableWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  replayWebhook,
  rotateWebhookSecret,
  testWebhook,
} from '@svc/core';
import { handle, type OperationHandlers } from '../handle.ts';
import { deliveryBody, webhookBody, webhookWithSecretBody } from '../views/webhooks.ts';

export const webhookHandlers = {
  createWebhook: handle(createWebhookOperation, async ({ ctx, principal, body }) => ({
    status: 201,
    body: webhookWithSecretBody(await createWebhook(ctx, { accountId: principal.accountId, request: body }), ctx.clock()),
  })),

  listWebhooks: handle(listWebhooksOperation, async ({ ctx, principal }) => {
    const now = ctx.clock();
    return { status: 200, body: { data: (await listWebhooks(ctx, { accountId: principal.accountId })).map((webhook) => webhookBody(webhook, now)) } };
  }),

  getWebhook: handle(getWebhookOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: webhookBody(await getWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }), ctx.clock()),
  })),

  deleteWebhook: handle(deleteWebhookOperation, async ({ ctx, principal, params }) => {
    await deleteWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id });
    return { status: 204 };
  }),

  rotateWebhookSecret: handle(rotateWebhookSecretOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: webhookWithSecretBody(await rotateWebhookSecret(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }), ctx.clock()),
  })),

  disableWebhook: handle(disableWebhookOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: webhookBody(await disableWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }), ctx.clock()),
  })),

  enableWebhook: handle(enableWebhookOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: webhookBody(await enableWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }), ctx.clock()),
  })),

  replayWebhook: handle(replayWebhookOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: { replayed: await replayWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }) },
  })),

  // 200 when the attempt finished within the wait, 202 while it is still queued or in flight
  testWebhook: handle(testWebhookOperation, async ({ ctx, principal, params }) => {
    const test = await testWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id });
    return { status: test.finished ? 200 : 202, body: { status_code: test.statusCode, delivered: test.delivered } };
  }),

  listWebhookDeliveries: handle(listWebhookDeliveriesOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: { data: (await listWebhookDeliveries(ctx, { accountId: principal.accountId, webhookId: params.webhook_id })).map(deliveryBody) },
  })),
} satisfies Partial<OperationHandlers>;
