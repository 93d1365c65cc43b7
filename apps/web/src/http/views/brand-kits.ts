import type { BrandAsset, BrandKitDetail, BrandKitSummary } from '@svc/contracts';
import type { AssetRecord, BrandKitRecord, BrandKitWithHistory } from '@svc/core';

/** A logo or font of a kit (the contract's brand kit resource). */
export function brandAssetBody(asset: AssetRecord): BrandAsset {
  return {
    id: asset.id,
    kind: asset.kind as BrandAsset['kind'],
    media_type: asset.mediaType as BrandAsset['media_type'],
    byte_size: asset.byteSize,
    created_at: asset.createdAt.toISOString(),
  };
}

/** A kit as a page lists it: asset metadata is omitted (the contract's brand kit list); read the kit for its assets. */
export function brandKitSummaryBody(kit: BrandKitRecord): BrandKitSummary {
  return {
    id: kit.id,
    name: kit.name,
    colours: kit.colours,
    tone_guidance: kit.toneGuidance,
    created_at: kit.createdAt.toISOString(),
    updated_at: kit.updatedAt.toISOString(),
    archived_at: kit.archivedAt?.toISOString() ?? null,
  };
}

/** BrandKitDetail: the kit, its current assets in kit order (replaced ones omitted) and its archive history, oldest first. */
export function brandKitDetailBody({ kit, archives, assets }: BrandKitWithHistory): BrandKitDetail {
  return {
    ...brandKitSummaryBody(kit),
    assets: assets.map(brandAssetBody),
    archive_history: archives.map((event) => ({
      archived_at: event.archivedAt.toISOString(),
      restored_at: event.restoredAt?.toISOString() ?? null,
    })),
  };
}
