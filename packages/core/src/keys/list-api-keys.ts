import { idPattern, keyIdPrefix } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { type ApiKeyRecord, type Page, pageOf } from '../shared/records.ts';

export interface ListApiKeysOptions {
  accountId: string;
  limit: number;
  cursor?: string;
}

/** A page of the account's keys, most recently created first; revoked keys stay listed. */
export async function listApiKeys(ctx: ServiceContext, { accountId, limit, cursor }: ListApiKeysOptions): Promise<Page<ApiKeyRecord>> {
  const after = cursor ? decodeCursor(cursor, idPattern(keyIdPrefix)) : undefined;
  const rows = await ctx.db.apiKey.findMany({
    where: {
      accountId,
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return pageOf(rows, limit, encodeCursor);
}
