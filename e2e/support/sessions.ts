// Browser sessions over plain HTTP: the __Host- cookie is Secure, so fetch would not keep it
// here; tests read Set-Cookie themselves and send the Cookie header.
import { sessionCookieName } from '@svc/contracts';
import { createSignInLink } from '@svc/core';
import { expect } from 'vitest';
import { api, baseUrl, serviceContext } from './api.ts';

export interface TestSession {
  cookie: string;
  csrfToken: string;
}

/** The path of a fresh one-use sign-in link for the account (the host is the test's own). */
export async function signInPath(accountId: string): Promise<string> {
  return new URL((await createSignInLink(serviceContext(), { accountId })).url).pathname;
}

/** Opens a sign-in link as a browser would, without following the redirect. */
export async function openLink(path: string, cookie?: string): Promise<Response> {
  const open = () => fetch(`${baseUrl()}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  try {
    return await open();
  } catch (error) {
    // a kept-alive connection the server closed while a test idled (a slow CLI run) is not an
    // answer; the request never reached the service, so sending it again uses nothing twice
    if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    return open();
  }
}

/** The session cookie pair ("__Host-svc_session=...") set by a response. */
export function sessionCookieFrom(response: Response): string {
  const set = response.headers.get('set-cookie') ?? '';
  const pair = set.split(';')[0] ?? '';
  expect(pair.startsWith(`${sessionCookieName}=`)).toBe(true);
  return pair;
}

/** Signs in through a fresh link and reads the CSRF token from GET /v1/me. */
export async function signIn(accountId: string): Promise<TestSession> {
  const response = await openLink(await signInPath(accountId));
  expect(response.status).toBe(303);
  const cookie = sessionCookieFrom(response);
  const me = await api('/v1/me', { headers: { cookie } });
  expect(me.status).toBe(200);
  return { cookie, csrfToken: me.body.csrf_token };
}

/** Headers of a write made with the session. */
export const sessionHeaders = (session: TestSession, csrf: string | null = session.csrfToken): Record<string, string> => ({
  cookie: session.cookie,
  ...(csrf === null ? {} : { 'x-csrf-token': csrf }),
});
