import type { SizeVariant } from '@svc/contracts';
import type { Tx } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';

/** A saved-template version selected for a render, resolved once and pinned. */
export interface ResolvedTemplateVersion {
  templateId: string;
  templateName: string | null;
  version: number;
  /** The request omitted version: the latest one was selected. */
  selectedLatest: boolean;
  source: string;
  schema: unknown;
  sizes: SizeVariant[];
}

export interface ResolveTemplateVersionOptions {
  accountId: string;
  templateId: string;
  version?: number;
}

const missing = (field: 'template_id' | 'version') => new DomainError('template_not_found', { details: [{ field, reason: 'invalid value' }] });

/**
 * Resolves template_id and version (omitted: the latest) once, before validation, admission,
 * idempotency, queueing and billing. Foreign, unknown and archived templates answer 404
 * template_not_found on template_id (archived templates cannot create renders, as they cannot
 * receive versions); an unknown version answers it on version.
 */
export async function resolveTemplateVersion(ctx: ServiceContext, options: ResolveTemplateVersionOptions): Promise<ResolvedTemplateVersion> {
  const template = await ctx.db.template.findFirst({ where: { id: options.templateId, accountId: options.accountId } });
  if (!template || template.archivedAt) throw missing('template_id');
  const number = options.version ?? template.latestVersion;
  const version = await ctx.db.templateVersion.findUnique({ where: { templateId_version: { templateId: template.id, version: number } } });
  if (!version) throw missing('version');
  return {
    templateId: template.id,
    templateName: template.name,
    version: number,
    selectedLatest: options.version === undefined,
    source: version.source,
    schema: version.schema ?? null,
    sizes: version.sizes as unknown as SizeVariant[],
  };
}

/**
 * Inside the admission transaction: the selection must still hold. A version never changes,
 * so "changed" means the template was archived meanwhile (any selection), or a newer version
 * was published after the latest one was resolved. The shared row lock makes a concurrent
 * publication or archive wait until this admission commits. Answers 409 template_version_changed.
 */
export async function confirmTemplateVersion(tx: Tx, resolved: ResolvedTemplateVersion): Promise<void> {
  const rows = await tx.$queryRaw<{ latest_version: number; archived: boolean }[]>`
    SELECT latest_version, archived_at IS NOT NULL AS archived FROM templates WHERE id = ${resolved.templateId} FOR SHARE`;
  const row = rows[0];
  if (!row || row.archived || (resolved.selectedLatest && row.latest_version !== resolved.version)) {
    throw new DomainError('template_version_changed');
  }
}
