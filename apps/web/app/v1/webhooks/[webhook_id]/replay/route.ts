import { replayWebhook } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(replayWebhook, async ({ ctx, caller, params }) => ({
  status: 200,
  body: await core.replayWebhook(ctx, { accountId: caller.accountId, webhookId: params.webhook_id ?? '' }),
}));
