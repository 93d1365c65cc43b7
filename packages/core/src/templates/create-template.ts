import { templateIdPrefix, type TemplateWriteRequest } from '@svc/contracts';
import type { Prisma } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { newId } from '../shared/ids.ts';
import { checkVersionContent } from './check-version-content.ts';
import type { TemplateWithContent } from './get-template.ts';
import { normalizeName, normalizeTags, schemaColumn } from './template-fields.ts';

export interface CreateTemplateOptions {
  accountId: string;
  request: TemplateWriteRequest;
}

/** Saves a new template with version 1 (the contract's saved template routes). input_mode is fixed at creation. */
export async function createTemplate(ctx: ServiceContext, { accountId, request }: CreateTemplateOptions): Promise<TemplateWithContent> {
  const inputMode = request.input_mode ?? 'html';
  const content = await checkVersionContent({ source: request.source, schema: request.schema, sizes: request.sizes, inputMode, account: { ctx, accountId }, metrics: ctx.metrics });
  const now = ctx.clock();
  const id = newId(templateIdPrefix);
  const { template, latest } = await ctx.db.$transaction(async (tx) => {
    const template = await tx.template.create({
      data: {
        id,
        accountId,
        name: normalizeName(request.name ?? null),
        tags: normalizeTags(request.tags ?? []),
        inputMode,
        latestVersion: 1,
        createdAt: now,
      },
    });
    const latest = await tx.templateVersion.create({
      data: {
        templateId: id,
        version: 1,
        source: content.source,
        schema: schemaColumn(content.schema),
        sizes: content.sizes as unknown as Prisma.InputJsonValue,
        createdAt: now,
      },
    });
    return { template, latest };
  });
  return { template, latest, archives: [] };
}
