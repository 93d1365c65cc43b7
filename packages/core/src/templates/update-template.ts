import type { TemplateRename } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { TemplateRecord } from '../shared/records.ts';
import { checkTemplateId, normalizeName, normalizeTags } from './template-fields.ts';

export interface UpdateTemplateOptions {
  accountId: string;
  templateId: string;
  changes: TemplateRename;
}

/**
 * Renames, retags or restores a template; omitted fields keep their values. archived_at null
 * restores an archived template and records restored_at in its archive history.
 */
export async function updateTemplate(ctx: ServiceContext, { accountId, templateId, changes }: UpdateTemplateOptions): Promise<TemplateRecord> {
  checkTemplateId(templateId);
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM templates WHERE id = ${templateId} AND account_id = ${accountId} FOR UPDATE`;
    if (rows.length === 0) throw notFound();
    if (changes.archived_at === null) {
      const restored = await tx.template.updateMany({ where: { id: templateId, archivedAt: { not: null } }, data: { archivedAt: null } });
      if (restored.count > 0) await tx.templateArchiveEvent.updateMany({ where: { templateId, restoredAt: null }, data: { restoredAt: now } });
    }
    return tx.template.update({
      where: { id: templateId },
      data: {
        ...(changes.name !== undefined ? { name: normalizeName(changes.name) } : {}),
        ...(changes.tags !== undefined ? { tags: normalizeTags(changes.tags) } : {}),
      },
    });
  });
}
