import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { TemplateRecord } from '../shared/records.ts';
import { checkTemplateId } from './template-fields.ts';

export interface ArchiveTemplateOptions {
  accountId: string;
  templateId: string;
}

/** Archives a template (the contract's archive lifecycle); archiving it again returns the same answer. */
export async function archiveTemplate(ctx: ServiceContext, { accountId, templateId }: ArchiveTemplateOptions): Promise<TemplateRecord> {
  checkTemplateId(templateId);
  const now = ctx.clock();
  const template = await ctx.db.$transaction(async (tx) => {
    const archived = await tx.template.updateMany({ where: { id: templateId, accountId, archivedAt: null }, data: { archivedAt: now } });
    if (archived.count > 0) await tx.templateArchiveEvent.create({ data: { templateId, archivedAt: now } });
    return tx.template.findFirst({ where: { id: templateId, accountId } });
  });
  if (!template) throw notFound();
  return template;
}
