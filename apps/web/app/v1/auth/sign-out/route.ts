import { signOutOperation } from '@svc/contracts';
import { endSession } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';
import { clearedSessionCookie } from '../../../../src/http/session-cookie.ts';

export const POST = handle(signOutOperation, async ({ ctx, principal }) => {
  await endSession(ctx, { sessionId: principal.sessionId });
  return { status: 204, headers: { 'set-cookie': clearedSessionCookie() } };
});
