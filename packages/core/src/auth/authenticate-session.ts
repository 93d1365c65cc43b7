import { timingSafeEqual } from 'node:crypto';
import type { Plan } from '@svc/db';
import { verifierOf } from './secret.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import type { SessionPrincipal } from './principal.ts';
import { sessionIdleTimeoutMs, sessionSecretPattern, sessionTouchResolutionMs } from './session-rules.ts';

export interface AuthenticateSessionOptions {
  /** The __Host-svc_session cookie's value. */
  secret: string;
  /** The x-csrf-token header, checked when `write` is true. */
  csrfToken: string | null;
  /** Whether the request changes anything (every method but GET and HEAD). */
  write: boolean;
}

/**
 * Resolves a session cookie to its live session: not signed out, within its idle timeout and
 * absolute lifetime, of an active account (suspension ends sessions; a session of a suspended
 * account is never live). Anything else answers 401 signed_out; a write without the session's
 * CSRF token answers 403 csrf_rejected. The lookup and the last_seen_at move are one statement.
 */
export async function authenticateSession(ctx: ServiceContext, options: AuthenticateSessionOptions): Promise<SessionPrincipal> {
  if (!sessionSecretPattern.test(options.secret)) throw new DomainError('signed_out');
  const now = ctx.clock();
  const idleSince = new Date(now.getTime() - sessionIdleTimeoutMs);
  const stale = new Date(now.getTime() - sessionTouchResolutionMs);
  const rows = await ctx.db.$queryRaw<{ id: string; account_id: string; csrf_token: string; plan: Plan; account_status: string }[]>`
    WITH live AS (
      SELECT s.id, s.account_id, s.csrf_token, s.last_seen_at, a.plan::text AS plan, a.status::text AS account_status
        FROM sessions s JOIN accounts a ON a.id = s.account_id
       WHERE s.verifier = ${verifierOf(options.secret)} AND s.ended_at IS NULL
         AND s.expires_at > ${now} AND s.last_seen_at > ${idleSince}),
    touched AS (
      UPDATE sessions SET last_seen_at = ${now}
       WHERE id = (SELECT id FROM live WHERE last_seen_at < ${stale} AND account_status = 'active'))
    SELECT id, account_id, csrf_token, plan, account_status FROM live`;
  const row = rows[0];
  if (!row || row.account_status !== 'active') throw new DomainError('signed_out');
  if (options.write && !sameToken(options.csrfToken, row.csrf_token)) throw new DomainError('csrf_rejected');
  return { kind: 'session', sessionId: row.id, accountId: row.account_id, plan: row.plan, csrfToken: row.csrf_token };
}

function sameToken(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
