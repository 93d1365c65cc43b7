import { verifierOf } from '../auth/secret.ts';
import type { ServiceContext } from '../shared/context.ts';
import { operatorTokenPattern } from './operator-token-secret.ts';

/** Who makes a request of the internal GraphQL API: one operator token. */
export interface OperatorPrincipal {
  kind: 'operator';
  tokenId: string;
  name: string;
}

/** last_used_at moves at most once a minute per token, like an API key's. */
const lastUsedResolutionMs = 60_000;

/**
 * Resolves "Authorization: Bearer <operator token>" to its active token, or null for anything
 * else: no header, another scheme, an API key, a session cookie alone, an unknown or revoked token.
 */
export async function authenticateOperator(ctx: ServiceContext, authorization: string | null): Promise<OperatorPrincipal | null> {
  const match = authorization ? /^Bearer +(\S+) *$/i.exec(authorization) : null;
  const token = match?.[1];
  if (!token || !operatorTokenPattern.test(token)) return null;
  const now = ctx.clock();
  const rows = await ctx.db.$queryRaw<{ id: string; name: string }[]>`
    WITH token AS (
      SELECT id, name, last_used_at FROM operator_tokens WHERE verifier = ${verifierOf(token)} AND revoked_at IS NULL),
    touched AS (
      UPDATE operator_tokens SET last_used_at = ${now}
       WHERE id = (SELECT id FROM token WHERE last_used_at IS NULL OR last_used_at < ${new Date(now.getTime() - lastUsedResolutionMs)}))
    SELECT id, name FROM token`;
  const row = rows[0];
  return row ? { kind: 'operator', tokenId: row.id, name: row.name } : null;
}
