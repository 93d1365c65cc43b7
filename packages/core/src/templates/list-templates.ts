import { idPattern, templateIdPrefix } from '@svc/contracts';
import type { Prisma } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { type Page, pageOf, type TemplateRecord } from '../shared/records.ts';

export interface TemplateList extends Page<TemplateRecord> {
  /** The first 100 distinct tags of the whole account, in code-point order. */
  tagOptions: string[];
}

export interface ListTemplatesOptions {
  accountId: string;
  status: 'active' | 'archived' | 'all';
  q?: string;
  tag?: string;
  limit: number;
  cursor?: string;
}

/**
 * Templates newest first, keyset-paged; q is a case-insensitive substring of the name, tag an
 * exact tag. tag_options are the first 100 distinct tags of the whole account, sorted by code point.
 */
export async function listTemplates(ctx: ServiceContext, options: ListTemplatesOptions): Promise<TemplateList> {
  const { accountId, status, limit, cursor } = options;
  const after = cursor ? decodeCursor(cursor, idPattern(templateIdPrefix)) : undefined;
  const search = options.q?.trim();
  const where: Prisma.TemplateWhereInput = {
    accountId,
    ...(status === 'active' ? { archivedAt: null } : status === 'archived' ? { archivedAt: { not: null } } : {}),
    ...(search ? { name: { contains: search, mode: 'insensitive' } } : {}),
    ...(options.tag !== undefined ? { tags: { has: options.tag } } : {}),
    ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
  };
  const [rows, tags] = await Promise.all([
    ctx.db.template.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 }),
    ctx.db.$queryRaw<{ tag: string }[]>`
      SELECT DISTINCT tag COLLATE "C" AS tag FROM templates, unnest(tags) AS tag
       WHERE account_id = ${accountId} ORDER BY tag LIMIT 100`,
  ]);
  return { ...pageOf(rows, limit, encodeCursor), tagOptions: tags.map((row) => row.tag) };
}
