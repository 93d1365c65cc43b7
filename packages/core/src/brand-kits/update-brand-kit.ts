import type { BrandKitPatch } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { brandKitNotFound, checkBrandKitId, checkToneGuidance, normaliseColours, normaliseKitName } from './brand-kit-fields.ts';
import { type BrandKitWithHistory, readBrandKit } from './get-brand-kit.ts';

export interface UpdateBrandKitOptions {
  accountId: string;
  brandKitId: string;
  changes: BrandKitPatch;
}

/**
 * Changes a kit; omitted fields keep their values and tone_guidance null clears it. An archived
 * kit cannot change (409 brand_kit_conflict) unless the same request restores it (archived_at
 * null, recorded in archive_history); the other fields then apply to the restored kit. The plan's
 * kit count is not checked here: an account above it after a plan change keeps working on its kits.
 */
export async function updateBrandKit(ctx: ServiceContext, { accountId, brandKitId, changes }: UpdateBrandKitOptions): Promise<BrandKitWithHistory> {
  if (Object.keys(changes).length === 0) throw new DomainError('brand_kit_patch_empty');
  checkBrandKitId(brandKitId);
  const name = changes.name === undefined ? undefined : normaliseKitName(changes.name);
  const colours = changes.colours === undefined ? undefined : normaliseColours(changes.colours);
  const toneGuidance = changes.tone_guidance === undefined ? undefined : checkToneGuidance(changes.tone_guidance);
  const restore = changes.archived_at === null;
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ archived_at: Date | null }[]>`
      SELECT archived_at FROM brand_kits WHERE id = ${brandKitId} AND account_id = ${accountId} FOR UPDATE`;
    if (!row) throw brandKitNotFound();
    const edits = { ...(name !== undefined ? { name } : {}), ...(colours !== undefined ? { colours } : {}), ...(toneGuidance !== undefined ? { toneGuidance } : {}) };
    if (row.archived_at !== null && !restore) throw new DomainError('brand_kit_conflict');
    const restoring = restore && row.archived_at !== null;
    if (restoring) await tx.brandKitArchiveEvent.updateMany({ where: { brandKitId, restoredAt: null }, data: { restoredAt: now } });
    if (restoring || Object.keys(edits).length > 0) {
      await tx.brandKit.update({ where: { id: brandKitId }, data: { ...edits, ...(restoring ? { archivedAt: null } : {}), updatedAt: now } });
    }
    return readBrandKit(tx, accountId, brandKitId);
  });
}
