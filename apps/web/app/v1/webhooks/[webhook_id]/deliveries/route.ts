import { listWebhookDeliveries } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const GET = handle(listWebhookDeliveries, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await core.listWebhookDeliveries(ctx, { accountId: principal.accountId, webhookId: params.webhook_id ?? '' }),
}));
