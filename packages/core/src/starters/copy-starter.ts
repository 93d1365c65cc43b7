import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { createTemplate } from '../templates/create-template.ts';
import type { TemplateWithContent } from '../templates/get-template.ts';
import { findStarter } from './list-starters.ts';

export interface CopyStarterOptions {
  accountId: string;
  starterId: string;
  /** the new template's name; omitted, the starter's name */
  name?: string | null;
}

/**
 * Copies a gallery starter into the account as a new saved template (version 1), through the
 * same create use-case as POST /v1/templates, so every saved-template check and limit applies.
 */
export async function copyStarter(ctx: ServiceContext, { accountId, starterId, name }: CopyStarterOptions): Promise<TemplateWithContent> {
  const starter = findStarter(starterId);
  if (!starter) throw new DomainError('gallery_template_not_found', { details: [{ field: 'starter_id', reason: 'invalid value' }] });
  return createTemplate(ctx, {
    accountId,
    request: {
      source: starter.source,
      name: name ?? starter.name,
      tags: [...starter.tags],
      input_mode: starter.inputMode,
      schema: starter.schema,
      sizes: starter.sizes?.map((size) => ({ ...size })),
    },
  });
}
