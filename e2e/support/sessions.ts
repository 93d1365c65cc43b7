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

export interface OpenLinkOptions {
  /** The service (the global setup's unless told). */
  base?: string;
  /** Sent with both requests (X-Forwarded-For to a service that trusts a proxy). */
  headers?: Record<string, string>;
}

/**
 * Opens a sign-in link as a browser would, without following the redirect: the link's page,
 * then its Sign in button (a same-origin form POST with the page's token and cookie). When the
 * page has no button (an unusable link), its answer.
 */
export async function openLink(path: string, cookie?: string, options: OpenLinkOptions = {}): Promise<Response> {
  const base = options.base ?? baseUrl();
  const page = await send(`${base}${path}`, { headers: { ...options.headers, ...(cookie ? { cookie } : {}) } });
  if (page.status !== 200) return page;
  const form = await signInForm(page);
  const cookies = [cookie, form.cookie].filter(Boolean).join('; ');
  return send(`${base}${form.action}`, {
    method: 'POST',
    headers: {
      ...options.headers,
      origin: new URL(base).origin,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookies,
    },
    body: new URLSearchParams({ form_token: form.token }).toString(),
  });
}

/** The sign-in page's form: where it posts, its token, and the cookie the page set with it. */
export async function signInForm(page: Response): Promise<{ action: string; token: string; cookie: string }> {
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1];
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  expect(action, html).toBeDefined();
  expect(token, html).toBeDefined();
  return { action: action!, token: token!, cookie };
}

async function send(url: string, init: RequestInit): Promise<Response> {
  const open = () => fetch(url, { redirect: 'manual', ...init });
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
