import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { TemplateArchiveRecord, TemplateRecord, TemplateVersionRecord } from '../shared/records.ts';
import { checkTemplateId } from './template-fields.ts';

/** A template with its latest version and its archive history, oldest first. */
export interface TemplateWithContent {
  template: TemplateRecord;
  latest: TemplateVersionRecord;
  archives: TemplateArchiveRecord[];
}

export interface GetTemplateOptions {
  accountId: string;
  templateId: string;
}

/** An owned template with its latest version; archived templates stay readable. */
export async function getTemplate(ctx: ServiceContext, { accountId, templateId }: GetTemplateOptions): Promise<TemplateWithContent> {
  checkTemplateId(templateId);
  const template = await ctx.db.template.findFirst({
    where: { id: templateId, accountId },
    include: { archives: { orderBy: [{ archivedAt: 'asc' }, { id: 'asc' }] } },
  });
  if (!template) throw notFound();
  const latest = await ctx.db.templateVersion.findUniqueOrThrow({
    where: { templateId_version: { templateId, version: template.latestVersion } },
  });
  const { archives, ...record } = template;
  return { template: record, latest, archives };
}
