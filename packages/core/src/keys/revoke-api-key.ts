import { idPattern, keyIdPrefix } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { ApiKeyRecord } from '../shared/records.ts';

export interface RevokeApiKeyOptions {
  accountId: string;
  keyId: string;
}

/** Revokes a key; revoking it again returns the same answer (the first revoked_at stays). */
export async function revokeApiKey(ctx: ServiceContext, { accountId, keyId }: RevokeApiKeyOptions): Promise<ApiKeyRecord> {
  if (!idPattern(keyIdPrefix).test(keyId)) throw notFound();
  await ctx.db.apiKey.updateMany({
    where: { id: keyId, accountId, status: 'active' },
    data: { status: 'revoked', revokedAt: ctx.clock() },
  });
  const key = await ctx.db.apiKey.findFirst({ where: { id: keyId, accountId } });
  if (!key) throw notFound();
  return key;
}
