import { maxBrandKitAssets } from '@svc/contracts';
import type { DbOrTx } from '@svc/db';
import { storeAsset } from '../assets/store-asset.ts';
import { type Principal, principalSubject } from '../auth/principal.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import type { AssetRecord } from '../shared/records.ts';
import { brandKitNotFound, checkBrandKitId } from './brand-kit-fields.ts';
import { verifyBrandAsset } from './verify-brand-asset.ts';

export interface CreateBrandAssetOptions {
  principal: Principal;
  brandKitId: string;
  /** The media type the caller declared (Content-Type without parameters), null when none. */
  declaredType: string | null;
  bytes: Uint8Array;
}

/**
 * Adds a logo or font to an active kit (the contract's brand kit routes) after its last asset. At most 16 current
 * assets per kit (replaced ones do not count: they left their place to a newer one), within the
 * account's asset quota, which counts every stored file, replaced ones included.
 */
export async function createBrandAsset(ctx: ServiceContext, options: CreateBrandAssetOptions): Promise<AssetRecord> {
  const { principal, brandKitId } = options;
  const { accountId } = principal;
  checkBrandKitId(brandKitId);
  await activeKit(ctx.db, accountId, brandKitId, false);
  await takeRateToken(ctx.db, 'brand_asset_upload', principalSubject(principal), ctx.clock());
  const verified = await verifyBrandAsset(options.bytes, options.declaredType);
  return storeAsset(ctx, {
    accountId,
    brandKitId,
    bytes: options.bytes,
    ...verified,
    quotaCode: 'brand_asset_account_limit_reached',
    admit: async (tx) => {
      await activeKit(tx, accountId, brandKitId, true);
      const current = await tx.asset.count({ where: { brandKitId, replacedAt: null } });
      if (current >= maxBrandKitAssets) throw new DomainError('brand_asset_limit_reached');
      const last = await tx.asset.aggregate({ where: { brandKitId }, _max: { position: true } });
      return { position: (last._max.position ?? 0) + 1 };
    },
  });
}

/**
 * An owned kit that can take assets: foreign and missing kits answer 404 brand_kit_not_found,
 * archived ones 409 brand_kit_conflict (an archived kit cannot change). With `lock`, the kit's
 * row is held until the transaction ends, so an archive cannot slip between check and write.
 */
export async function activeKit(db: DbOrTx, accountId: string, brandKitId: string, lock: boolean): Promise<void> {
  const [kit] = lock
    ? await db.$queryRaw<{ archived_at: Date | null }[]>`
        SELECT archived_at FROM brand_kits WHERE id = ${brandKitId} AND account_id = ${accountId} FOR UPDATE`
    : await db.$queryRaw<{ archived_at: Date | null }[]>`
        SELECT archived_at FROM brand_kits WHERE id = ${brandKitId} AND account_id = ${accountId}`;
  if (!kit) throw brandKitNotFound();
  if (kit.archived_at !== null) throw new DomainError('brand_kit_conflict', { details: [{ field: 'brand_kit_id', reason: 'invalid value' }] });
}
