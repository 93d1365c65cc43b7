import { testWebhook } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(testWebhook, async ({ ctx, principal, params }) =>
  core.testWebhook(ctx, { accountId: principal.accountId, webhookId: params.webhook_id ?? '' }),
);
