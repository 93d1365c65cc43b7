import { rotateWebhookSecretOperation } from '@svc/contracts';
import { rotateWebhookSecret } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { webhookWithSecretBody } from '../../../../../src/http/views/webhooks.ts';

export const POST = handle(rotateWebhookSecretOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: webhookWithSecretBody(await rotateWebhookSecret(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }), ctx.clock()),
}));
