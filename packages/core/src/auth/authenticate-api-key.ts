import { apiKeySecretPattern } from '@svc/contracts';
import type { Plan } from '@svc/db';
import { verifierOf } from '../keys/secret.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import type { ApiKeyPrincipal } from './principal.ts';

/**
 * Resolves "Authorization: Bearer <secret>" to the calling key and account.
 * Missing, malformed, unknown and revoked keys all answer 401; a suspended account 403.
 * The lookup and the last_used_at update are one indexed statement.
 */
export async function authenticateApiKey(ctx: ServiceContext, authorization: string | null): Promise<ApiKeyPrincipal> {
  const match = authorization ? /^Bearer +(\S+) *$/i.exec(authorization) : null;
  const secret = match?.[1];
  if (!secret || !apiKeySecretPattern.test(secret)) throw new DomainError('unauthorized');
  const rows = await ctx.db.$queryRaw<
    { key_id: string; account_id: string; plan: Plan; account_status: string; monthly_overage_cap: number | null }[]
  >`
    UPDATE api_keys k SET last_used_at = ${ctx.clock()}
      FROM accounts a
     WHERE k.verifier = ${verifierOf(secret)} AND k.status = 'active' AND a.id = k.account_id
    RETURNING k.id AS key_id, k.account_id, a.plan::text AS plan, a.status::text AS account_status, k.monthly_overage_cap`;
  const row = rows[0];
  if (!row) throw new DomainError('unauthorized');
  if (row.account_status !== 'active') throw new DomainError('account_suspended');
  return { kind: 'api_key', accountId: row.account_id, keyId: row.key_id, plan: row.plan, monthlyOverageCap: row.monthly_overage_cap };
}
