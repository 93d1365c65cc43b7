import { disableWebhook } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(disableWebhook, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await core.disableWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id ?? '' }),
}));
