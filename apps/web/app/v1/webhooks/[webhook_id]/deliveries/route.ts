import { listWebhookDeliveries } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const GET = handle(listWebhookDeliveries, async ({ ctx, caller, params }) => ({
  status: 200,
  body: await core.listWebhookDeliveries(ctx, { accountId: caller.accountId, webhookId: params.webhook_id ?? '' }),
}));
