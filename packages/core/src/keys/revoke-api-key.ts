import { idPattern, keyIdPrefix } from '@svc/contracts';
import { stopKeyMembers } from '../groups/stop-key-members.ts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { ApiKeyRecord } from '../shared/records.ts';
import { lockAccountAdmissions } from '../renders/admit-render-job.ts';

export interface RevokeApiKeyOptions {
  accountId: string;
  keyId: string;
}

/**
 * Revokes a key; revoking it again returns the same answer (the first revoked_at stays). A
 * revoked key stops spending: under the account row lock that every admission takes, the
 * members of its groups that have not started are ended (see stopKeyMembers).
 */
export async function revokeApiKey(ctx: ServiceContext, { accountId, keyId }: RevokeApiKeyOptions): Promise<ApiKeyRecord> {
  if (!idPattern(keyIdPrefix).test(keyId)) throw notFound();
  const now = ctx.clock();
  const key = await ctx.db.$transaction(async (tx) => {
    await lockAccountAdmissions(tx, accountId);
    await tx.apiKey.updateMany({ where: { id: keyId, accountId, status: 'active' }, data: { status: 'revoked', revokedAt: now } });
    const found = await tx.apiKey.findFirst({ where: { id: keyId, accountId } });
    if (found) await stopKeyMembers(tx, { accountId, keyId, now, metrics: ctx.metrics });
    return found;
  });
  if (!key) throw notFound();
  return key;
}
