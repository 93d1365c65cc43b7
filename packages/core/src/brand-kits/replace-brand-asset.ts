import { storeAsset } from '../assets/store-asset.ts';
import { type Principal, principalSubject } from '../auth/principal.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import type { AssetRecord } from '../shared/records.ts';
import { checkBrandKitId } from './brand-kit-fields.ts';
import { activeKit } from './create-brand-asset.ts';
import { verifyBrandAsset } from './verify-brand-asset.ts';

export interface ReplaceBrandAssetOptions {
  principal: Principal;
  brandKitId: string;
  /** The current asset the upload takes the place of. */
  assetId: string;
  declaredType: string | null;
  bytes: Uint8Array;
}

const replacedConflict = () => new DomainError('brand_kit_conflict', { details: [{ field: 'asset_id', reason: 'invalid value' }] });

/**
 * Stores a new immutable asset of the same kind and makes it current in the old one's place
 * (the contract's brand kit routes). The old asset stays stored and readable: renders that captured it keep its bytes.
 * Only a current asset can be replaced (a replaced one answers 409 brand_kit_conflict); an
 * upload of the other kind answers 422 brand_asset_kind_invalid. The kit's asset count does not
 * change; the account quota counts the new file.
 */
export async function replaceBrandAsset(ctx: ServiceContext, options: ReplaceBrandAssetOptions): Promise<AssetRecord> {
  const { principal, brandKitId, assetId } = options;
  const { accountId } = principal;
  checkBrandKitId(brandKitId);
  await activeKit(ctx.db, accountId, brandKitId, false);
  const old = await ctx.db.asset.findFirst({ where: { id: assetId, accountId, brandKitId } });
  if (!old) throw notFound();
  if (old.replacedAt !== null) throw replacedConflict();
  await takeRateToken(ctx.db, 'brand_asset_upload', principalSubject(principal), ctx.clock());
  const verified = await verifyBrandAsset(options.bytes, options.declaredType);
  if (verified.kind !== old.kind) throw new DomainError('brand_asset_kind_invalid', { details: [{ field: 'body.kind_invalid', reason: 'invalid value' }] });
  return storeAsset(ctx, {
    accountId,
    brandKitId,
    bytes: options.bytes,
    ...verified,
    quotaCode: 'brand_asset_account_limit_reached',
    admit: async (tx) => {
      await activeKit(tx, accountId, brandKitId, true);
      // two replacements of one asset take turns on the kit's row; the second finds it replaced
      const still = await tx.asset.findFirst({ where: { id: assetId, replacedAt: null }, select: { position: true } });
      if (!still || still.position === null) throw replacedConflict();
      return { position: still.position };
    },
    settle: async (tx, asset) => {
      await tx.asset.update({ where: { id: assetId }, data: { replacedAt: asset.createdAt, replacedBy: asset.id } });
    },
  });
}
