// Where the dashboard sends people, and how a return path is told apart from an open redirect.

export const signInPage = '/sign-in';
export const dashboardHome = '/dashboard';
/** Set by proxy.ts on every dashboard request: the path (with query) the browser asked for. */
export const dashboardPathHeader = 'x-svc-dashboard-path';
/** Remembers, between asking for a link and opening it, where the browser wanted to go. */
export const returnPathCookie = '__Host-svc_return_to';

/** Why the sign-in page was shown: the session is gone (expired, ended elsewhere) or was signed out here. */
export type SignInReason = 'session_ended' | 'signed_out';

/** A dashboard path to return to after signing in, or the dashboard's home for anything else. */
export function safeReturnPath(path: string | null | undefined): string {
  if (!path) return dashboardHome;
  const inside = path === dashboardHome || path.startsWith(`${dashboardHome}/`) || path.startsWith(`${dashboardHome}?`);
  if (!inside || !/^\/[\x21-\x7e]*$/.test(path) || path.includes('\\') || path.includes('//')) return dashboardHome;
  return path;
}

/** The sign-in page's address for a return path and reason. */
export function signInUrl(returnPath?: string | null, reason?: SignInReason): string {
  const query = new URLSearchParams();
  const next = safeReturnPath(returnPath);
  if (next !== dashboardHome) query.set('next', next);
  if (reason) query.set('reason', reason);
  const text = query.toString();
  return text ? `${signInPage}?${text}` : signInPage;
}

/**
 * The way in on an installation without email: the operator CLI prints a one-use sign-in link
 * for an account, run in the service's checkout (docs/operations.md).
 */
export function signInLinkCommand(accountId = 'ID'): string {
  return `npm run svc -- account sign-in-link ${accountId}`;
}
