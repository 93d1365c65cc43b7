import { createWebhook, listWebhooks } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../src/http/handle.ts';

export const POST = handle(createWebhook, async ({ ctx, caller, body }) => ({
  status: 201,
  body: await core.createWebhook(ctx, { accountId: caller.accountId, request: body }),
}));

export const GET = handle(listWebhooks, async ({ ctx, caller }) => ({
  status: 200,
  body: await core.listWebhooks(ctx, { accountId: caller.accountId }),
}));
