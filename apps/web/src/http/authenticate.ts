import { csrfHeaderName, type OperationAuth, sessionCookieName } from '@svc/contracts';
import { authenticateApiKey, authenticateSession, DomainError, type Principal, type ServiceContext } from '@svc/core';
import type { ApiRequest, WithHeaders } from './api-request.ts';

/**
 * Who calls, by the operation's declared auth (the contract's authentication rules). A bearer key wins over the
 * cookie; routes that take only a key never read the cookie at all (a cookie alone there is
 * 401, as if absent). Every write made with the cookie must carry the session's CSRF token.
 */
export async function authenticate(ctx: ServiceContext, auth: OperationAuth, request: ApiRequest): Promise<Principal | null> {
  const authorization = request.headers.get('authorization');
  switch (auth) {
    case 'none':
      return null;
    case 'bearer':
      return authenticateApiKey(ctx, authorization);
    case 'bearer_or_session': {
      if (authorization !== null) return authenticateApiKey(ctx, authorization);
      const secret = sessionCookie(request);
      if (secret === null) throw new DomainError('unauthorized');
      return sessionOf(ctx, secret, request);
    }
    case 'session': {
      const secret = sessionCookie(request);
      if (secret === null) throw new DomainError('signed_out');
      return sessionOf(ctx, secret, request);
    }
  }
}

function sessionOf(ctx: ServiceContext, secret: string, request: ApiRequest) {
  const write = request.method !== 'GET' && request.method !== 'HEAD';
  return authenticateSession(ctx, { secret, csrfToken: request.headers.get(csrfHeaderName), write });
}

/** The session cookie's value, or null. A name sent twice is read as absent rather than guessed at. */
export function sessionCookie(request: WithHeaders): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  const values = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${sessionCookieName}=`))
    .map((part) => part.slice(sessionCookieName.length + 1));
  return values.length === 1 ? (values[0] as string) : null;
}
