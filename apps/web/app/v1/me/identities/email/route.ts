import { requestEmailIdentityOperation } from '@svc/contracts';
import { requestEmailIdentity } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(requestEmailIdentityOperation, async ({ ctx, principal, body }) => {
  await requestEmailIdentity(ctx, { principal, email: body.email, next: body.next });
  return { status: 202, body: {} };
});
