import { createWebhook, listWebhooks } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../src/http/handle.ts';

export const POST = handle(createWebhook, async ({ ctx, principal, body }) => ({
  status: 201,
  body: await core.createWebhook(ctx, { accountId: principal.accountId, request: body }),
}));

export const GET = handle(listWebhooks, async ({ ctx, principal }) => ({
  status: 200,
  body: await core.listWebhooks(ctx, { accountId: principal.accountId }),
}));
