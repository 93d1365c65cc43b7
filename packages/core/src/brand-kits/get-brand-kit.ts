import type { DbOrTx } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import type { BrandKitArchiveRecord, BrandKitRecord } from '../shared/records.ts';
import { brandKitNotFound, checkBrandKitId } from './brand-kit-fields.ts';

/** A brand kit with its archive history, oldest first. Assets join it with brand assets. */
export interface BrandKitWithHistory {
  kit: BrandKitRecord;
  archives: BrandKitArchiveRecord[];
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

export async function readBrandKit(db: DbOrTx, accountId: string, brandKitId: string): Promise<BrandKitWithHistory> {
  const found = await db.brandKit.findFirst({
    where: { id: brandKitId, accountId },
    include: { archives: { orderBy: [{ archivedAt: 'asc' }, { id: 'asc' }] } },
  });
  if (!found) throw brandKitNotFound();
  const { archives, ...kit } = found;
  return { kit, archives };
}
