import { deleteWebhookOperation, getWebhookOperation } from '@svc/contracts';
import { deleteWebhook, getWebhook } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';
import { webhookBody } from '../../../../src/http/views/webhooks.ts';

export const GET = handle(getWebhookOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: webhookBody(await getWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }), ctx.clock()),
}));

export const DELETE = handle(deleteWebhookOperation, async ({ ctx, principal, params }) => {
  await deleteWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id });
  return { status: 204 };
});
