import { type ApiKeyList, idPattern, keyIdPrefix } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { toApiKeyView } from './api-key-view.ts';

export interface ListApiKeysOptions {
  accountId: string;
  limit: number;
  cursor?: string;
}

/** A page of the account's keys, most recently created first; revoked keys stay listed. */
export async function listApiKeys(ctx: ServiceContext, { accountId, limit, cursor }: ListApiKeysOptions): Promise<ApiKeyList> {
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
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(toApiKeyView),
    next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}
