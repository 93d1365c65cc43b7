import { revokeApiKeyOperation, updateApiKeyOperation } from '@svc/contracts';
import { revokeApiKey, updateApiKey } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';
import { apiKeyBody } from '../../../../src/http/views/api-keys.ts';

export const PATCH = handle(updateApiKeyOperation, async ({ ctx, principal, params, body }) => ({
  status: 200,
  body: apiKeyBody(await updateApiKey(ctx, { accountId: principal.accountId, keyId: params.key_id, changes: body })),
}));

export const DELETE = handle(revokeApiKeyOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: apiKeyBody(await revokeApiKey(ctx, { accountId: principal.accountId, keyId: params.key_id })),
}));
