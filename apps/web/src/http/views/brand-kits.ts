import type { BrandKitDetail, BrandKitSummary } from '@svc/contracts';
import type { BrandKitRecord, BrandKitWithHistory } from '@svc/core';

/** A kit as a page lists it: asset metadata is omitted (spec 2.6); read the kit for its assets. */
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

/** BrandKitDetail: the kit, its current assets (none until brand assets exist) and its archive history, oldest first. */
export function brandKitDetailBody({ kit, archives }: BrandKitWithHistory): BrandKitDetail {
  return {
    ...brandKitSummaryBody(kit),
    assets: [],
    archive_history: archives.map((event) => ({
      archived_at: event.archivedAt.toISOString(),
      restored_at: event.restoredAt?.toISOString() ?? null,
    })),
  };
}
