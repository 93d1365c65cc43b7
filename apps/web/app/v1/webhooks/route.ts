import { createWebhookOperation, listWebhooksOperation } from '@svc/contracts';
import { createWebhook, listWebhooks } from '@svc/core';
import { handle } from '../../../src/http/handle.ts';
import { webhookBody, webhookWithSecretBody } from '../../../src/http/views/webhooks.ts';

export const POST = handle(createWebhookOperation, async ({ ctx, principal, body }) => ({
  status: 201,
  body: webhookWithSecretBody(await createWebhook(ctx, { accountId: principal.accountId, request: body }), ctx.clock()),
}));

export const GET = handle(listWebhooksOperation, async ({ ctx, principal }) => {
  const now = ctx.clock();
  return { status: 200, body: { data: (await listWebhooks(ctx, { accountId: principal.accountId })).map((webhook) => webhookBody(webhook, now)) } };
});
