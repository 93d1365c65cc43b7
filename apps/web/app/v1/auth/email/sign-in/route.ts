import { requestEmailSignInOperation } from '@svc/contracts';
import { requestEmailSignIn } from '@svc/core';
import { clientAddress } from '../../../../../src/http/client-address.ts';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(requestEmailSignInOperation, async ({ ctx, body, request }) => {
  await requestEmailSignIn(ctx, { email: body.email, clientAddress: clientAddress(request) });
  return { status: 202, body: {} };
});
