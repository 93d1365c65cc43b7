import { testWebhook } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(testWebhook, async ({ ctx, caller, params }) =>
  core.testWebhook(ctx, { accountId: caller.accountId, webhookId: params.webhook_id ?? '' }),
);
