// Runs before every dashboard request: a page asked for without a session cookie goes straight
// to the sign-in page (with the path to come back to), and the page learns its own path, which
// requireSession needs when a cookie turns out to be expired.
import { sessionCookieName } from '@svc/contracts';
import { type NextRequest, NextResponse } from 'next/server';
import { dashboardPathHeader, signInUrl } from './src/dashboard/paths.ts';

export function proxy(request: NextRequest) {
  const path = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  // a server action (a POST) answers for itself: without a cookie it says the session ended,
  // where a redirect would leave the page with an answer it cannot read
  const pageRequest = request.method === 'GET' || request.method === 'HEAD';
  if (pageRequest && !request.cookies.has(sessionCookieName)) {
    return NextResponse.redirect(new URL(signInUrl(path), request.url), 303);
  }
  const forwarded = new Headers(request.headers);
  forwarded.set(dashboardPathHeader, path);
  return NextResponse.next({ request: { headers: forwarded } });
}

export const config = { matcher: ['/dashboard', '/dashboard/:path*'] };
