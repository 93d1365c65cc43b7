import { apiKeySecretPattern } from '@svc/contracts';
import { type Plan, Prisma, queryRows } from '@svc/db';
import { verifierOf } from './secret.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import type { ApiKeyPrincipal } from './principal.ts';

/** How stale last_used_at may be: it is written at most once per this interval per key. */
export const lastUsedResolutionMs = 60_000;

/**
 * Resolves "Authorization: Bearer <secret>" to the calling key and account.
 * Missing, malformed, unknown and revoked keys all answer 401; a suspended account 403.
 * The lookup and the last_used_at update are one statement; last_used_at moves at most once
 * a minute per key (lastUsedResolutionMs), so a busy key's requests neither write nor wait
 * on each other's row lock.
 */
export async function authenticateApiKey(ctx: ServiceContext, authorization: string | null): Promise<ApiKeyPrincipal> {
  const match = authorization ? /^Bearer +(\S+) *$/i.exec(authorization) : null;
  const secret = match?.[1];
  if (!secret || !apiKeySecretPattern.test(secret)) throw new DomainError('unauthorized');
  const now = ctx.clock();
  const stale = new Date(now.getTime() - lastUsedResolutionMs);
  const rows = await queryRows<{ key_id: string; account_id: string; plan: Plan; account_status: string; monthly_overage_cap: number | null }>(
    ctx.db,
    Prisma.sql`
    WITH key AS (
      SELECT k.id AS key_id, k.account_id, a.plan::text AS plan, a.status::text AS account_status, k.monthly_overage_cap, k.last_used_at
        FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.verifier = ${verifierOf(secret)} AND k.status = 'active'),
    touched AS (
      UPDATE api_keys SET last_used_at = ${now}
       WHERE id = (SELECT key_id FROM key WHERE last_used_at IS NULL OR last_used_at < ${stale}))
    SELECT key_id, account_id, plan, account_status, monthly_overage_cap FROM key`,
  );
  const row = rows[0];
  if (!row) throw new DomainError('unauthorized');
  if (row.account_status !== 'active') throw new DomainError('account_suspended');
  return { kind: 'api_key', accountId: row.account_id, keyId: row.key_id, plan: row.plan, monthlyOverageCap: row.monthly_overage_cap };
}
