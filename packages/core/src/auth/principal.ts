import type { Plan } from '@svc/db';

/** Who is calling: an API key or a browser session. Both belong to exactly one account. */
export type Principal = ApiKeyPrincipal | SessionPrincipal;

interface AccountOfPrincipal {
  accountId: string;
  plan: Plan;
}

export interface ApiKeyPrincipal extends AccountOfPrincipal {
  kind: 'api_key';
  keyId: string;
  /** The key's monthly overage cap; null sets none. */
  monthlyOverageCap: number | null;
}

/**
 * A signed-in browser. It has no key, so the per-key rules read as follows (docs/decisions/accounts.md, Principals): its rate
 * buckets are its own (per session); the per-key concurrency limit counts the account's jobs
 * created without a key (all its sessions together); no key cap bounds its overage, which
 * counts against the account.
 */
export interface SessionPrincipal extends AccountOfPrincipal {
  kind: 'session';
  sessionId: string;
  /** Every write made with the cookie must carry it (x-csrf-token); GET /v1/me hands it out. */
  csrfToken: string;
}

/** The key a job, reservation or ledger entry records: the API key's id, or null for a session. */
export function keyIdOf(principal: Principal): string | null {
  return principal.kind === 'api_key' ? principal.keyId : null;
}

/** The overage cap that bounds this principal's work (sessions have none). */
export function overageCapOf(principal: Principal): number | null {
  return principal.kind === 'api_key' ? principal.monthlyOverageCap : null;
}

/** A stable name of the principal for per-principal counters such as rate buckets. */
export function principalSubject(principal: Principal): string {
  return principal.kind === 'api_key' ? `key:${principal.keyId}` : `session:${principal.sessionId}`;
}
