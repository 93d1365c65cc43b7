import { enableWebhookOperation } from '@svc/contracts';
import { enableWebhook } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { webhookBody } from '../../../../../src/http/views/webhooks.ts';

export const POST = handle(enableWebhookOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: webhookBody(await enableWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }), ctx.clock()),
}));
