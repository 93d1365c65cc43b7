import type { TemplateDetail } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { checkTemplateId } from './template-fields.ts';
import { toTemplateDetail } from './template-view.ts';

export interface GetTemplateOptions {
  accountId: string;
  templateId: string;
}

/** An owned template with its latest version; archived templates stay readable. */
export async function getTemplate(ctx: ServiceContext, { accountId, templateId }: GetTemplateOptions): Promise<TemplateDetail> {
  checkTemplateId(templateId);
  const template = await ctx.db.template.findFirst({
    where: { id: templateId, accountId },
    include: { archives: { orderBy: [{ archivedAt: 'asc' }, { id: 'asc' }] } },
  });
  if (!template) throw notFound();
  const latest = await ctx.db.templateVersion.findUniqueOrThrow({
    where: { templateId_version: { templateId, version: template.latestVersion } },
  });
  return toTemplateDetail(template, latest, template.archives);
}
