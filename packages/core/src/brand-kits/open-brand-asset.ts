import { type AssetContent, openAssetContent } from '../assets/open-asset-content.ts';
import type { ServiceContext } from '../shared/context.ts';
import { brandKitNotFound, checkBrandKitId } from './brand-kit-fields.ts';

export interface OpenBrandAssetOptions {
  accountId: string;
  brandKitId: string;
  assetId: string;
}

/**
 * The validated bytes of a logo or font of an owned kit, current or replaced, whether the kit is
 * active or archived (renders that captured an asset may still name it). Foreign, missing and
 * malformed kits answer 404 brand_kit_not_found; an asset not of the kit 404 not_found.
 */
export async function openBrandAsset(ctx: ServiceContext, { accountId, brandKitId, assetId }: OpenBrandAssetOptions): Promise<AssetContent> {
  checkBrandKitId(brandKitId);
  const kit = await ctx.db.brandKit.findFirst({ where: { id: brandKitId, accountId }, select: { id: true } });
  if (!kit) throw brandKitNotFound();
  return openAssetContent(ctx, { accountId, assetId, brandKitId });
}
