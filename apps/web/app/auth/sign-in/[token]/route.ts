import { randomUUID } from 'node:crypto';
import { checkSignInFormToken, describeSignInLink, DomainError, newSignInFormBinding, openSignInLink } from '@svc/core';
import { errorBody } from '@svc/contracts';
import { serviceContext } from '../../../../src/http/context.ts';
import { sessionCookie } from '../../../../src/http/authenticate.ts';
import { clientAddress } from '../../../../src/http/client-address.ts';
import { sessionSetCookie } from '../../../../src/http/session-cookie.ts';
import { confirmPage, messagePage, pageHeaders } from '../../../../src/http/sign-in-page.ts';
import { returnPathCookie, safeReturnPath } from '../../../../src/dashboard/paths.ts';

type Route = { params: Promise<{ token: string }> };

/** Holds the browser's half of the form token between the link's page and its button. */
const bindingCookie = '__Host-svc_sign_in';
const unusable = ['This sign-in link cannot be used', 'It has expired, was already used, or is not a link we sent. Ask for a new one.'] as const;

// Opening a link uses nothing: mail scanners fetch links, and another site can navigate a
// browser to one. The page names whom the link signs in; only its button's POST signs in.
export async function GET(request: Request, { params }: Route): Promise<Response> {
  const { token } = await params;
  const ctx = serviceContext();
  const link = await describeSignInLink(ctx, { secret: token });
  if (!link.usable) return html(410, messagePage(...unusable));
  // a browser with two links open keeps one value, so both pages' buttons work
  const kept = cookieValue(request, bindingCookie);
  const binding = await newSignInFormBinding(ctx, token, kept);
  const headers = new Headers(pageHeaders);
  headers.append('set-cookie', `${bindingCookie}=${binding.browserValue}; Path=/; Max-Age=900; HttpOnly; Secure; SameSite=Lax`);
  const page = confirmPage({ accountLabel: link.accountLabel, newAccount: link.newAccount, action: new URL(request.url).pathname, formToken: binding.formToken });
  return new Response(page, { status: 200, headers });
}

export async function HEAD(request: Request, route: Route): Promise<Response> {
  const { token } = await route.params;
  const link = await describeSignInLink(serviceContext(), { secret: token });
  return new Response(null, { status: link.usable ? 200 : 410, headers: pageHeaders });
}

// The sign-in itself: only from this service's own pages (a cross-site form is refused before
// anything else), with the form token of this link and browser; then a new session (never
// the cookie the browser brought) and a redirect to the dashboard.
export async function POST(request: Request, { params }: Route): Promise<Response> {
  const { token } = await params;
  const ctx = serviceContext();
  try {
    if (!sameOrigin(request, ctx.config.publicUrl)) throw new DomainError('cross_origin_rejected');
    const form = new URLSearchParams((await request.text()).slice(0, 4096));
    if (!(await checkSignInFormToken(ctx, token, cookieValue(request, bindingCookie), form.get('form_token')))) throw new DomainError('csrf_rejected');
    const outcome = await openSignInLink(ctx, { secret: token, presentedSession: sessionCookie(request), clientAddress: clientAddress(request) });
    if (!outcome.signedIn) return html(410, messagePage(...unusable));
    // the dashboard page this browser asked for before its link was mailed, else the dashboard's home
    const returnPath = cookieValue(request, returnPathCookie);
    const headers = new Headers({ location: safeReturnPath(returnPath), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    headers.append('set-cookie', sessionSetCookie(outcome.session.secret, outcome.session.expiresAt));
    headers.append('set-cookie', `${bindingCookie}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`);
    if (returnPath !== null) headers.append('set-cookie', `${returnPathCookie}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`);
    return new Response(null, { status: 303, headers });
  } catch (error) {
    return refusal(request, error, ctx);
  }
}

/**
 * A request from the service's own pages. Browsers say where a request comes from in
 * Sec-Fetch-Site, which no page can set; one that does not send it still sends Origin with
 * every POST, which must then be the service's own.
 */
function sameOrigin(request: Request, publicUrl: string): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site === 'same-origin';
  return request.headers.get('origin') === new URL(publicUrl).origin;
}

/** A refusal in the error envelope; a browser's form gets a page with the same status. */
function refusal(request: Request, error: unknown, ctx: ReturnType<typeof serviceContext>): Response {
  const requestId = request.headers.get('x-request-id') ?? randomUUID();
  if (!(error instanceof DomainError)) {
    ctx.logger.error('sign-in link failed', { requestId, error: error instanceof Error ? error.stack : String(error) });
  }
  const { status, body } = errorBody(error instanceof DomainError ? error.code : 'internal_error', requestId, error instanceof DomainError ? error : undefined);
  const headers: Record<string, string> = { 'x-request-id': requestId, ...(body.error.retry ? { 'retry-after': String(body.error.retry.retry_after_seconds) } : {}) };
  if ((request.headers.get('accept') ?? '').includes('text/html')) {
    return html(status, messagePage('Sign-in refused', `${body.error.message} Open the link from your email again.`), headers);
  }
  return Response.json(body, { status, headers: { ...headers, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } });
}

function cookieValue(request: Request, name: string): string | null {
  const pair = (request.headers.get('cookie') ?? '').split(';').map((part) => part.trim()).find((part) => part.startsWith(`${name}=`));
  return pair ? decodeURIComponent(pair.slice(name.length + 1)) : null;
}

function html(status: number, page: string, headers: Record<string, string> = {}): Response {
  return new Response(page, { status, headers: { ...pageHeaders, ...headers } });
}
