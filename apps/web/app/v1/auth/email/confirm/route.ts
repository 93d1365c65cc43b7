import { confirmEmailOperation } from '@svc/contracts';
import { confirmEmailIdentity } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(confirmEmailOperation, async ({ ctx, principal, body }) => {
  const confirmed = await confirmEmailIdentity(ctx, { principal, token: body.token });
  return {
    status: 200,
    body: { email: confirmed.email, confirmed_at: confirmed.confirmedAt.toISOString(), credits_granted: confirmed.creditsGranted, next: confirmed.next },
  };
});
