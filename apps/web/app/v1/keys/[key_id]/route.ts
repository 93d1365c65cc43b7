import { revokeApiKey, updateApiKey } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const PATCH = handle(updateApiKey, async ({ ctx, principal, params, body }) => ({
  status: 200,
  body: await core.updateApiKey(ctx, { accountId: principal.accountId, keyId: params.key_id ?? '', changes: body }),
}));

export const DELETE = handle(revokeApiKey, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await core.revokeApiKey(ctx, { accountId: principal.accountId, keyId: params.key_id ?? '' }),
}));
