import type { Readable } from 'node:stream';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError, notFound } from '../shared/errors.ts';

export interface OpenAssetContentOptions {
  accountId: string;
  assetId: string;
  /** Only an asset of this kit (current or replaced); the kit route checks the kit itself first. */
  brandKitId?: string;
}

export interface AssetContent {
  stream: Readable;
  mediaType: string;
  byteSize: number;
}

/** The exact stored bytes of an asset of the account (any kind); foreign, unknown and malformed ids are the same 404 not_found. */
export async function openAssetContent(ctx: ServiceContext, { accountId, assetId, brandKitId }: OpenAssetContentOptions): Promise<AssetContent> {
  const asset = await ctx.db.asset.findFirst({ where: { id: assetId, accountId, ...(brandKitId ? { brandKitId } : {}) } });
  if (!asset) throw notFound();
  const stored = await ctx.storage.open(asset.storageKey);
  // the record exists but its file cannot be read: our fault, not the caller's
  if (!stored) throw new DomainError('image_asset_unavailable');
  return { stream: stored.stream, mediaType: asset.mediaType, byteSize: asset.byteSize };
}
