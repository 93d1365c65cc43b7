import type { TemplateVersionWriteRequest } from '@svc/contracts';
import type { Prisma } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { checkVersionContent } from './check-version-content.ts';
import type { TemplateVersionRecord } from '../shared/records.ts';
import { checkTemplateId, schemaColumn } from './template-fields.ts';

export interface CreateTemplateVersionOptions {
  accountId: string;
  templateId: string;
  request: TemplateVersionWriteRequest;
}

/**
 * Publishes the next immutable version (the contract's versioning rule). Archived templates cannot receive versions
 * and answer 404. The template row lock numbers concurrent publications one after another
 * and waits for render admissions that hold the row (see resolve-template-version.ts).
 */
export async function createTemplateVersion(ctx: ServiceContext, options: CreateTemplateVersionOptions): Promise<TemplateVersionRecord> {
  const { accountId, templateId, request } = options;
  checkTemplateId(templateId);
  const template = await ctx.db.template.findFirst({ where: { id: templateId, accountId, archivedAt: null }, select: { inputMode: true } });
  if (!template) throw notFound();
  const content = await checkVersionContent({ ...request, inputMode: template.inputMode, account: { ctx, accountId }, metrics: ctx.metrics });
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ latest_version: number }[]>`
      SELECT latest_version FROM templates WHERE id = ${templateId} AND account_id = ${accountId} AND archived_at IS NULL FOR UPDATE`;
    const current = rows[0];
    if (!current) throw notFound();
    const number = current.latest_version + 1;
    await tx.template.update({ where: { id: templateId }, data: { latestVersion: number } });
    return tx.templateVersion.create({
      data: {
        templateId,
        version: number,
        source: content.source,
        schema: schemaColumn(content.schema),
        sizes: content.sizes as unknown as Prisma.InputJsonValue,
        createdAt: now,
      },
    });
  });
}
