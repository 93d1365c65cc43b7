// Runs before every dashboard page: a browser without a session cookie goes straight to the
// sign-in page (with the path to come back to), and the page learns its own path, which
// requireSession needs when a cookie turns out to be expired.
import { sessionCookieName } from '@svc/contracts';
import { type NextRequest, NextResponse } from 'next/server';
import { dashboardPathHeader, signInUrl } from './src/dashboard/paths.ts';

export function proxy(request: NextRequest) {
  const path = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  if (!request.cookies.has(sessionCookieName)) {
    return NextResponse.redirect(new URL(signInUrl(path), request.url), 303);
  }
  const forwarded = new Headers(request.headers);
  forwarded.set(dashboardPathHeader, path);
  return NextResponse.next({ request: { headers: forwarded } });
}

export const config = { matcher: ['/dashboard', '/dashboard/:path*'] };
