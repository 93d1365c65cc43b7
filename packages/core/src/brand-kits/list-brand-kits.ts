import { brandKitIdPrefix, idPattern } from '@svc/contracts';
import type { Prisma } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { type BrandKitRecord, type Page, pageOf } from '../shared/records.ts';

export interface ListBrandKitsOptions {
  accountId: string;
  status: 'active' | 'archived' | 'all';
  limit: number;
  cursor?: string;
}

/** Brand kits newest first, keyset-paged by creation time and id. */
export async function listBrandKits(ctx: ServiceContext, { accountId, status, limit, cursor }: ListBrandKitsOptions): Promise<Page<BrandKitRecord>> {
  const after = cursor ? decodeCursor(cursor, idPattern(brandKitIdPrefix)) : undefined;
  const where: Prisma.BrandKitWhereInput = {
    accountId,
    ...(status === 'active' ? { archivedAt: null } : status === 'archived' ? { archivedAt: { not: null } } : {}),
    ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
  };
  const rows = await ctx.db.brandKit.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
  return pageOf(rows, limit, encodeCursor);
}
