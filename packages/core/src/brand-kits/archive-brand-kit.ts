import type { ServiceContext } from '../shared/context.ts';
import { brandKitNotFound, checkBrandKitId } from './brand-kit-fields.ts';

export interface ArchiveBrandKitOptions {
  accountId: string;
  brandKitId: string;
}

/**
 * Archives a kit (the contract's archive lifecycle): it stays readable, keeps counting against the plan, and can no longer
 * be selected by renders. Archiving it again changes nothing (the first archived_at stays).
 */
export async function archiveBrandKit(ctx: ServiceContext, { accountId, brandKitId }: ArchiveBrandKitOptions): Promise<void> {
  checkBrandKitId(brandKitId);
  const now = ctx.clock();
  await ctx.db.$transaction(async (tx) => {
    const archived = await tx.brandKit.updateMany({ where: { id: brandKitId, accountId, archivedAt: null }, data: { archivedAt: now, updatedAt: now } });
    if (archived.count > 0) {
      await tx.brandKitArchiveEvent.create({ data: { brandKitId, archivedAt: now } });
      return;
    }
    if ((await tx.brandKit.count({ where: { id: brandKitId, accountId } })) === 0) throw brandKitNotFound();
  });
}
