// The signed-in browser, for the dashboard's server components: the __Host-svc_session cookie
// through the core's authenticateSession (the same rules as /v1: idle timeout, absolute
// lifetime, suspension). Reads never need the CSRF token; writes go through sessionAction.
import { sessionCookieName } from '@svc/contracts';
import { authenticateSession, DomainError, type SessionPrincipal, type ServiceContext, showAccount } from '@svc/core';
import type { Plan } from '@svc/db';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { serviceContext } from '../http/context.ts';
import { dashboardPathHeader, signInUrl } from './paths.ts';

export interface DashboardSession {
  principal: SessionPrincipal;
  /** Every server action must send it back (the hidden field ActionForm adds). */
  csrfToken: string;
  accountId: string;
  plan: Plan;
  /** The account's proven email address, or null. */
  email: string | null;
  sessionId: string;
  /** The web process's service context, for calling core use-cases. */
  ctx: ServiceContext;
}

export type SessionLookup = { state: 'signed_in'; session: DashboardSession } | { state: 'absent' } | { state: 'ended' };

/** The request's session, looked up once per request however many components ask. */
export const lookupSession = cache(async (): Promise<SessionLookup> => {
  const secret = (await cookies()).get(sessionCookieName)?.value;
  if (!secret) return { state: 'absent' };
  const ctx = serviceContext();
  try {
    const principal = await authenticateSession(ctx, { secret, csrfToken: null, write: false });
    const account = await showAccount(ctx, principal.accountId);
    return {
      state: 'signed_in',
      session: {
        principal,
        csrfToken: principal.csrfToken,
        accountId: principal.accountId,
        plan: principal.plan,
        email: account.email,
        sessionId: principal.sessionId,
        ctx,
      },
    };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'signed_out') return { state: 'ended' };
    throw error;
  }
});

/**
 * The signed-in session, or a redirect to the sign-in page that brings the browser back to
 * the page it asked for; a cookie that no longer signs in says "your session ended" there.
 */
export async function requireSession(): Promise<DashboardSession> {
  const found = await lookupSession();
  if (found.state === 'signed_in') return found.session;
  const path = (await headers()).get(dashboardPathHeader);
  redirect(signInUrl(path, found.state === 'ended' ? 'session_ended' : undefined));
}
