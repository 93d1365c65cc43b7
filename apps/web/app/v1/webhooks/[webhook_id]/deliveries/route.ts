import { listWebhookDeliveriesOperation } from '@svc/contracts';
import { listWebhookDeliveries } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { deliveryBody } from '../../../../../src/http/views/webhooks.ts';

export const GET = handle(listWebhookDeliveriesOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: { data: (await listWebhookDeliveries(ctx, { accountId: principal.accountId, webhookId: params.webhook_id })).map(deliveryBody) },
}));
