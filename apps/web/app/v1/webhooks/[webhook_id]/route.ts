import { deleteWebhook, getWebhook } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const GET = handle(getWebhook, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await core.getWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id ?? '' }),
}));

export const DELETE = handle(deleteWebhook, async ({ ctx, principal, params }) => {
  await core.deleteWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id ?? '' });
  return { status: 204 };
});
