import { replayWebhookOperation } from '@svc/contracts';
import { replayWebhook } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(replayWebhookOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: { replayed: await replayWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id }) },
}));
