// Runs before every page (dashboard, site, sign-in): each answer gets the security headers,
// with a fresh nonce that Next puts on its scripts (it reads it from the request's policy).
// A dashboard page asked for without a session cookie goes straight to the sign-in page
// (with the path to come back to), and the page learns its own path, which requireSession
// needs when a cookie turns out to be expired.
import { randomBytes } from 'node:crypto';
import { sessionCookieName } from '@svc/contracts';
import { type NextRequest, NextResponse } from 'next/server';
import { dashboardPathHeader, signInUrl } from './src/dashboard/paths.ts';
import { pageSecurityHeaders } from './src/http/page-headers.ts';

export function proxy(request: NextRequest) {
  const headers = pageSecurityHeaders({ nonce: randomBytes(16).toString('base64'), path: request.nextUrl.pathname, publicUrl: process.env.SVC_PUBLIC_URL });
  const response = dashboard(request, headers['content-security-policy']!);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

function dashboard(request: NextRequest, policy: string): NextResponse {
  const forwarded = new Headers(request.headers);
  forwarded.set('content-security-policy', policy);
  const pathname = request.nextUrl.pathname;
  if (pathname !== '/dashboard' && !pathname.startsWith('/dashboard/')) return NextResponse.next({ request: { headers: forwarded } });
  const path = `${pathname}${request.nextUrl.search}`;
  // a server action (a POST) answers for itself: without a cookie it says the session ended,
  // where a redirect would leave the page with an answer it cannot read
  const pageRequest = request.method === 'GET' || request.method === 'HEAD';
  if (pageRequest && !request.cookies.has(sessionCookieName)) {
    return NextResponse.redirect(new URL(signInUrl(path), request.url), 303);
  }
  forwarded.set(dashboardPathHeader, path);
  return NextResponse.next({ request: { headers: forwarded } });
}

// every page; not the API (/v1, /api/graphql with its own page) or Next's static files
export const config = { matcher: ['/((?!v1|api/|_next/static|_next/image|favicon.ico).*)'] };
