import { confirmEmailOperation, getMeOperation, requestEmailIdentityOperation, requestEmailSignInOperation, signOutOperation } from '@svc/contracts';
import { confirmEmailIdentity, endSession, requestEmailIdentity, requestEmailSignIn, showMe } from '@svc/core';
import { clientAddress } from '../client-address.ts';
import { handle, type OperationHandlers } from '../handle.ts';
import { clearedSessionCookie } from '../session-cookie.ts';
import { accountMeBody } from '../views/account.ts';

export const accountHandlers = {
  getMe: handle(getMeOperation, async ({ ctx, principal }) => ({
    status: 200,
    body: accountMeBody(await showMe(ctx, principal.accountId), principal),
    headers: { 'cache-control': 'private, no-store' },
  })),

  signOut: handle(signOutOperation, async ({ ctx, principal }) => {
    await endSession(ctx, { sessionId: principal.sessionId });
    return { status: 204, headers: { 'set-cookie': clearedSessionCookie() } };
  }),

  requestEmailIdentity: handle(requestEmailIdentityOperation, async ({ ctx, principal, body }) => {
    await requestEmailIdentity(ctx, { principal, email: body.email, next: body.next });
    return { status: 202, body: {} };
  }),

  confirmEmail: handle(confirmEmailOperation, async ({ ctx, principal, body }) => {
    const confirmed = await confirmEmailIdentity(ctx, { principal, token: body.token });
    return {
      status: 200,
      body: { email: confirmed.email, confirmed_at: confirmed.confirmedAt.toISOString(), credits_granted: confirmed.creditsGranted, next: confirmed.next },
    };
  }),

  requestEmailSignIn: handle(requestEmailSignInOperation, async ({ ctx, body, request }) => {
    await requestEmailSignIn(ctx, { email: body.email, clientAddress: clientAddress(request) });
    return { status: 202, body: {} };
  }),
} satisfies Partial<OperationHandlers>;
