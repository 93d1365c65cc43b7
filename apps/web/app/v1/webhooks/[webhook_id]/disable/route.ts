import { disableWebhookOperation } from '@svc/contracts';
import { disableWebhook } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { webhookBody } from '../../../../../src/http/views/webhooks.ts';

export const POST = handle(disableWebhookOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: webhookBody(await disableWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }), ctx.clock()),
}));
