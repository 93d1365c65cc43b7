import { testWebhookOperation } from '@svc/contracts';
import { testWebhook } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

// 200 when the attempt finished within the wait, 202 while it is still queued or in flight
export const POST = handle(testWebhookOperation, async ({ ctx, principal, params }) => {
  const test = await testWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id });
  return { status: test.finished ? 200 : 202, body: { status_code: test.statusCode, delivered: test.delivered } };
});
