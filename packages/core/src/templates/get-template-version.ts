import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { TemplateVersionRecord } from '../shared/records.ts';
import { checkTemplateId, parseVersionNumber } from './template-fields.ts';

export interface GetTemplateVersionOptions {
  accountId: string;
  templateId: string;
  version: string;
}

/** One version of an owned template; a malformed or missing version number is not found. */
export async function getTemplateVersion(ctx: ServiceContext, options: GetTemplateVersionOptions): Promise<TemplateVersionRecord> {
  checkTemplateId(options.templateId);
  const number = parseVersionNumber(options.version);
  const version = await ctx.db.templateVersion.findFirst({
    where: { templateId: options.templateId, version: number, template: { accountId: options.accountId } },
  });
  if (!version) throw notFound();
  return version;
}
