import { openSignInLink } from '@svc/core';
import { serviceContext } from '../../../../src/http/context.ts';
import { sessionCookie } from '../../../../src/http/authenticate.ts';
import { sessionSetCookie } from '../../../../src/http/session-cookie.ts';
import { returnPathCookie, safeReturnPath } from '../../../../src/dashboard/paths.ts';

// Opening a one-use sign-in link: a new session (never the cookie the browser brought) and a
// redirect to the dashboard, or a plain page when the link cannot be used.
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const ctx = serviceContext();
  try {
    const outcome = await openSignInLink(ctx, { secret: token, presentedSession: sessionCookie(request) });
    if (!outcome.signedIn) return page(410, 'This sign-in link cannot be used', 'It has expired, was already used, or is not a link we sent. Ask for a new one.');
    const { session } = outcome;
    // the dashboard page this browser asked for before its link was mailed, else the dashboard's home
    const returnPath = cookieValue(request, returnPathCookie);
    const headers = new Headers({
      location: safeReturnPath(returnPath),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    headers.append('set-cookie', sessionSetCookie(session.secret, session.expiresAt));
    if (returnPath !== null) headers.append('set-cookie', `${returnPathCookie}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`);
    return new Response(null, { status: 303, headers });
  } catch (error) {
    ctx.logger.error('sign-in link failed', { error: error instanceof Error ? error.stack : String(error) });
    return page(500, 'Sign-in failed', 'Something went wrong on our side. Try the link again in a moment.');
  }
}

function cookieValue(request: Request, name: string): string | null {
  const pair = (request.headers.get('cookie') ?? '').split(';').map((part) => part.trim()).find((part) => part.startsWith(`${name}=`));
  return pair ? decodeURIComponent(pair.slice(name.length + 1)) : null;
}

function page(status: number, title: string, text: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body style="font-family: system-ui, sans-serif; margin: 3rem auto; max-width: 42rem"><h1>${title}</h1><p>${text}</p></body></html>`;
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}
