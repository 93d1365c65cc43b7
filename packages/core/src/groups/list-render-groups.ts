import type { GroupKind, Prisma } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { type Page, pageOf } from '../shared/records.ts';
import { groupIdPattern } from './group-kinds.ts';
import { groupView, groupWithMembers, type RenderGroupView } from './get-render-group.ts';

export interface ListRenderGroupsOptions {
  accountId: string;
  /** Only batches, carousels or image packs; all three unless told. */
  kind?: GroupKind;
  limit: number;
  cursor?: string;
}

/**
 * The account's batches, carousels and image packs, newest first, keyset-paged, each with its
 * members' states (the dashboard's list; the spec has no list route). Reads only.
 */
export async function listRenderGroups(ctx: ServiceContext, { accountId, kind, limit, cursor }: ListRenderGroupsOptions): Promise<Page<RenderGroupView>> {
  const after = cursor ? decodeCursor(cursor, groupIdPattern) : undefined;
  const where: Prisma.RenderGroupWhereInput = {
    accountId,
    ...(kind ? { kind } : {}),
    ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
  };
  const rows = await ctx.db.renderGroup.findMany({ where, include: groupWithMembers, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
  return pageOf(rows.map(groupView), limit, (last) => encodeCursor(last.group));
}
