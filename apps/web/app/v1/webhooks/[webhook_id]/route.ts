import { deleteWebhook, getWebhook } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const GET = handle(getWebhook, async ({ ctx, caller, params }) => ({
  status: 200,
  body: await core.getWebhook(ctx, { accountId: caller.accountId, webhookId: params.webhook_id ?? '' }),
}));

export const DELETE = handle(deleteWebhook, async ({ ctx, caller, params }) => {
  await core.deleteWebhook(ctx, { accountId: caller.accountId, webhookId: params.webhook_id ?? '' });
  return { status: 204 };
});
