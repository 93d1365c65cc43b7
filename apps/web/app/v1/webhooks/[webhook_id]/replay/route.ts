import { replayWebhook } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(replayWebhook, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await core.replayWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id ?? '' }),
}));
