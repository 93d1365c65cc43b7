import { templateIdPrefix, type TemplateBuildDraft } from '@svc/contracts';
import type { Prisma } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { schemaColumn } from '../templates/template-fields.ts';
import { findOwnedBuild, type GetTemplateBuildOptions } from './get-template-build.ts';
import { checkPublishable } from './message-rules.ts';

export interface Publication {
  templateId: string;
  version: number;
  /** False when this draft had already been published (200 with the same version). */
  created: boolean;
}

/**
 * Publishes the build's current draft (the contract's publication lifecycle): the first time as a new saved template
 * (version 1, the build's input mode), then as the next version of that template. The build
 * row is locked, so concurrent publications of one draft make one version; publishing the
 * same draft again answers that version. An archived template cannot take versions (409).
 */
export async function publishTemplateBuild(ctx: ServiceContext, options: GetTemplateBuildOptions): Promise<Publication> {
  const build = await findOwnedBuild(ctx, options);
  if (build.draft === null) throw new DomainError('template_draft_not_found');
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM template_builds WHERE id = ${build.id} FOR UPDATE`;
    const current = await tx.templateBuild.findUniqueOrThrow({ where: { id: build.id } });
    const draft = current.draft as TemplateBuildDraft;
    if (current.publishedMessageId !== null && current.publishedMessageId === current.draftMessageId && current.publishedTemplateId && current.publishedVersion) {
      return { templateId: current.publishedTemplateId, version: current.publishedVersion, created: false };
    }
    const inputMode = current.inputMode ?? 'html';
    // the draft passed these checks when it was made; they run again since the rules may have moved on
    const content = await checkPublishable(ctx.metrics, draft, inputMode);
    let templateId = current.publishedTemplateId;
    let version = 1;
    if (templateId === null) {
      templateId = newId(templateIdPrefix);
      await tx.template.create({ data: { id: templateId, accountId: build.accountId, name: null, tags: [], inputMode, latestVersion: 1, createdAt: now } });
    } else {
      const rows = await tx.$queryRaw<{ latest_version: number }[]>`
        SELECT latest_version FROM templates WHERE id = ${templateId} AND archived_at IS NULL FOR UPDATE`;
      const template = rows[0];
      if (!template) throw new DomainError('operation_conflict');
      version = template.latest_version + 1;
      await tx.template.update({ where: { id: templateId }, data: { latestVersion: version } });
    }
    await tx.templateVersion.create({
      data: { templateId, version, source: content.source, schema: schemaColumn(content.schema), sizes: [] as Prisma.InputJsonValue, createdAt: now },
    });
    await tx.templateBuild.update({
      where: { id: build.id },
      data: { publishedTemplateId: templateId, publishedVersion: version, publishedMessageId: current.draftMessageId, updatedAt: now },
    });
    return { templateId, version, created: true };
  });
}
