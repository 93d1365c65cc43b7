import type { ServiceContext } from '../shared/context.ts';

export interface ListTemplateNamesOptions {
  accountId: string;
  templateIds: string[];
}

/**
 * The names of the account's templates among these ids (null for an unnamed one), for pages
 * that name the template a render came from; an id of another account is left out.
 */
export async function listTemplateNames(ctx: ServiceContext, { accountId, templateIds }: ListTemplateNamesOptions): Promise<Map<string, string | null>> {
  const ids = [...new Set(templateIds)];
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.template.findMany({ where: { accountId, id: { in: ids } }, select: { id: true, name: true } });
  return new Map(rows.map((row) => [row.id, row.name]));
}
