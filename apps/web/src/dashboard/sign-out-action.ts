'use server';
import { sessionCookieName } from '@svc/contracts';
import { endSession } from '@svc/core';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { sessionAction } from './actions.ts';
import { signInUrl } from './paths.ts';

/** Ends this browser's session (its cookie signs in nowhere afterwards) and shows the sign-in page. */
export const signOut = sessionAction(z.object({}), async (_input, { ctx, principal }) => {
  await endSession(ctx, { sessionId: principal.sessionId });
  (await cookies()).set(sessionCookieName, '', { path: '/', maxAge: 0, httpOnly: true, secure: true, sameSite: 'lax' });
  redirect(signInUrl(null, 'signed_out'));
});
