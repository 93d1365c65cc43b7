import { createApiKey, listApiKeys } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../src/http/handle.ts';

export const POST = handle(createApiKey, async ({ ctx, caller, body }) => ({
  status: 201,
  body: await core.createApiKey(ctx, { accountId: caller.accountId, name: body.name }),
}));

export const GET = handle(listApiKeys, async ({ ctx, caller, query }) => ({
  status: 200,
  body: await core.listApiKeys(ctx, { accountId: caller.accountId, limit: query.limit, cursor: query.cursor }),
}));
