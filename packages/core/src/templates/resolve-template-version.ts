import type { SizeVariant } from '@svc/contracts';
import { Prisma, queryRows, type Tx } from '@svc/db';
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
  // the template and its selected version in one statement: every saved render asks this
  const [row] = await queryRows<{ name: string | null; version: number; archived: boolean; source: string | null; schema: unknown; sizes: unknown }>(
    ctx.db,
    Prisma.sql`
    SELECT t.name, coalesce(${options.version ?? null}::int, t.latest_version) AS version, t.archived_at IS NOT NULL AS archived, v.source, v.schema, v.sizes
      FROM templates t
      LEFT JOIN template_versions v ON v.template_id = t.id AND v.version = coalesce(${options.version ?? null}::int, t.latest_version)
     WHERE t.id = ${options.templateId} AND t.account_id = ${options.accountId}`,
  );
  if (!row || row.archived) throw missing('template_id');
  if (row.source === null) throw missing('version');
  return {
    templateId: options.templateId,
    templateName: row.name,
    version: row.version,
    selectedLatest: options.version === undefined,
    source: row.source,
    schema: row.schema ?? null,
    sizes: row.sizes as SizeVariant[],
  };
}

/**
 * The selection still holds (confirmTemplateVersion's rule), as a condition of the statement
 * that admits a render in one round trip (admitRenderJobWithToken), taking the same shared row
 * lock; false (nothing admitted) sends the render the general way, which answers 409.
 */
export const templateVersionHeld = (resolved: ResolvedTemplateVersion) => Prisma.sql`
    coalesce((SELECT archived_at IS NULL ${resolved.selectedLatest ? Prisma.sql`AND latest_version = ${resolved.version}` : Prisma.empty}
                FROM templates WHERE id = ${resolved.templateId} FOR SHARE), false)`;

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
