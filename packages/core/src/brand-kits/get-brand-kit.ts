import type { DbOrTx } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import type { AssetRecord, BrandKitArchiveRecord, BrandKitRecord } from '../shared/records.ts';
import { brandKitNotFound, checkBrandKitId } from './brand-kit-fields.ts';

/** A brand kit with its archive history, oldest first, and its current logos and fonts in kit order. */
export interface BrandKitWithHistory {
  kit: BrandKitRecord;
  archives: BrandKitArchiveRecord[];
  assets: AssetRecord[];
}

export interface GetBrandKitOptions {
  accountId: string;
  brandKitId: string;
}

/** An owned brand kit; archived kits stay readable. Foreign, missing and malformed ids are the same 404. */
export async function getBrandKit(ctx: ServiceContext, { accountId, brandKitId }: GetBrandKitOptions): Promise<BrandKitWithHistory> {
  checkBrandKitId(brandKitId);
  return readBrandKit(ctx.db, accountId, brandKitId);
}

/** A kit's current assets (replaced ones omitted), in kit order: the order of brand.logos and brand.fonts. */
export const currentBrandAssets = { where: { replacedAt: null }, orderBy: { position: 'asc' } } as const;

export async function readBrandKit(db: DbOrTx, accountId: string, brandKitId: string): Promise<BrandKitWithHistory> {
  const found = await db.brandKit.findFirst({
    where: { id: brandKitId, accountId },
    include: { archives: { orderBy: [{ archivedAt: 'asc' }, { id: 'asc' }] }, assets: currentBrandAssets },
  });
  if (!found) throw brandKitNotFound();
  const { archives, assets, ...kit } = found;
  return { kit, archives, assets };
}
