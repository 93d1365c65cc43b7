import { revokeApiKey, updateApiKey } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const PATCH = handle(updateApiKey, async ({ ctx, caller, params, body }) => ({
  status: 200,
  body: await core.updateApiKey(ctx, { accountId: caller.accountId, keyId: params.key_id ?? '', changes: body }),
}));

export const DELETE = handle(revokeApiKey, async ({ ctx, caller, params }) => ({
  status: 200,
  body: await core.revokeApiKey(ctx, { accountId: caller.accountId, keyId: params.key_id ?? '' }),
}));
