import { createApiKeyOperation, listApiKeysOperation } from '@svc/contracts';
import { createApiKey, listApiKeys } from '@svc/core';
import { handle } from '../../../src/http/handle.ts';
import { apiKeyBody, newApiKeyBody } from '../../../src/http/views/api-keys.ts';

export const POST = handle(createApiKeyOperation, async ({ ctx, principal, body }) => ({
  status: 201,
  body: newApiKeyBody(await createApiKey(ctx, { accountId: principal.accountId, name: body.name })),
}));

export const GET = handle(listApiKeysOperation, async ({ ctx, principal, query }) => {
  const page = await listApiKeys(ctx, { accountId: principal.accountId, limit: query.limit, cursor: query.cursor });
  return { status: 200, body: { data: page.items.map(apiKeyBody), next_cursor: page.nextCursor } };
});
