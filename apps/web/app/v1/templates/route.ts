import { createTemplate, listTemplates } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../src/http/handle.ts';

export const POST = handle(createTemplate, async ({ ctx, principal, body }) => ({
  status: 201,
  body: await core.createTemplate(ctx, { accountId: principal.accountId, request: body }),
}));

export const GET = handle(listTemplates, async ({ ctx, principal, query }) => ({
  status: 200,
  body: await core.listTemplates(ctx, { accountId: principal.accountId, ...query }),
}));
