import type { Tx } from '@svc/db';
import { newId } from '../shared/ids.ts';
import { newAuthSecret, newCsrfToken } from './auth-secrets.ts';
import { sessionAbsoluteLifetimeMs, sessionIdPrefix, sessionSecretPrefix } from './session-rules.ts';

export interface StartedSession {
  sessionId: string;
  accountId: string;
  /** The cookie value, returned once; only its verifier is stored. */
  secret: string;
  csrfToken: string;
  expiresAt: Date;
}

/** A new session with a fresh id, secret and CSRF token: never one the browser brought along. */
export async function startSession(tx: Tx, accountId: string, now: Date): Promise<StartedSession> {
  const { secret, verifier } = newAuthSecret(sessionSecretPrefix);
  const csrfToken = newCsrfToken();
  const expiresAt = new Date(now.getTime() + sessionAbsoluteLifetimeMs);
  const session = await tx.session.create({
    data: { id: newId(sessionIdPrefix), accountId, verifier, csrfToken, createdAt: now, lastSeenAt: now, expiresAt },
  });
  return { sessionId: session.id, accountId, secret, csrfToken, expiresAt };
}
