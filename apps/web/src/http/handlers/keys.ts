import { createApiKeyOperation, listApiKeysOperation, revokeApiKeyOperation, updateApiKeyOperation } from '@svc/contracts';
import { createApiKey, listApiKeys, revokeApiKey, updateApiKey } from '@svc/core';
import { handle, type OperationHandlers } from '../handle.ts';
import { apiKeyBody, newApiKeyBody } from '../views/api-keys.ts';

export const keyHandlers = {
  createApiKey: handle(createApiKeyOperation, async ({ ctx, principal, body }) => ({
    status: 201,
    body: newApiKeyBody(await createApiKey(ctx, { accountId: principal.accountId, name: body.name })),
  })),

  listApiKeys: handle(listApiKeysOperation, async ({ ctx, principal, query }) => {
    const page = await listApiKeys(ctx, { accountId: principal.accountId, limit: query.limit, cursor: query.cursor });
    return { status: 200, body: { data: page.items.map(apiKeyBody), next_cursor: page.nextCursor } };
  }),

  updateApiKey: handle(updateApiKeyOperation, async ({ ctx, principal, params, body }) => ({
    status: 200,
    body: apiKeyBody(await updateApiKey(ctx, { accountId: principal.accountId, keyId: params.key_id, changes: body })),
  })),

  revokeApiKey: handle(revokeApiKeyOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: apiKeyBody(await revokeApiKey(ctx, { accountId: principal.accountId, keyId: params.key_id })),
  })),
} satisfies Partial<OperationHandlers>;
