import { disableWebhook } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(disableWebhook, async ({ ctx, caller, params }) => ({
  status: 200,
  body: await core.disableWebhook(ctx, { accountId: caller.accountId, webhookId: params.webhook_id ?? '' }),
}));
