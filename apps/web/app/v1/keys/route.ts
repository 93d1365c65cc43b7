import { createApiKey, listApiKeys } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../src/http/handle.ts';

export const POST = handle(createApiKey, async ({ ctx, principal, body }) => ({
  status: 201,
  body: await core.createApiKey(ctx, { accountId: principal.accountId, name: body.name }),
}));

export const GET = handle(listApiKeys, async ({ ctx, principal, query }) => ({
  status: 200,
  body: await core.listApiKeys(ctx, { accountId: principal.accountId, limit: query.limit, cursor: query.cursor }),
}));
