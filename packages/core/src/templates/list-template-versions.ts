import type { ServiceContext } from '../shared/context.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { type Page, pageOf } from '../shared/records.ts';
import { checkTemplateId } from './template-fields.ts';

export interface ListTemplateVersionsOptions {
  accountId: string;
  templateId: string;
  limit: number;
  cursor?: string;
}

/**
 * Versions newest first. Version numbers are unique and ordered, so the cursor is simply the
 * last listed number in base 36 behind a "v" (at most 8 characters; the contract allows 32).
 */
export async function listTemplateVersions(ctx: ServiceContext, options: ListTemplateVersionsOptions): Promise<Page<{ version: number; createdAt: Date }>> {
  const { accountId, templateId, limit } = options;
  checkTemplateId(templateId);
  const before = options.cursor === undefined ? undefined : decodeVersionCursor(options.cursor);
  const template = await ctx.db.template.findFirst({ where: { id: templateId, accountId }, select: { id: true } });
  if (!template) throw notFound();
  const rows = await ctx.db.templateVersion.findMany({
    where: { templateId, ...(before ? { version: { lt: before } } : {}) },
    orderBy: { version: 'desc' },
    take: limit + 1,
    select: { version: true, createdAt: true },
  });
  return pageOf(rows, limit, (last) => `v${last.version.toString(36)}`);
}

function decodeVersionCursor(cursor: string): number {
  const match = /^v([0-9a-z]{1,7})$/.exec(cursor);
  const value = match ? parseInt(match[1] as string, 36) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 2 || value > 2_147_483_647) throw new DomainError('invalid_cursor');
  return value;
}
