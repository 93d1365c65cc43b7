import { type Principal, principalSubject } from '../auth/principal.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { AssetRecord } from '../shared/records.ts';
import { imageAssetError } from './image-refusals.ts';
import { storeAsset } from './store-asset.ts';
import { verifyImage } from './verify-image.ts';

export interface CreateImageAssetOptions {
  principal: Principal;
  /** The media type the caller declared (Content-Type without parameters), null when none. */
  declaredType: string | null;
  bytes: Uint8Array;
}

/**
 * Stores an uploaded image (the contract's image asset routes): a still PNG, JPEG or WebP whose bytes are what was
 * declared, within the image limits and the account's asset quota. No credit is spent.
 */
export async function createImageAsset(ctx: ServiceContext, { principal, declaredType, bytes }: CreateImageAssetOptions): Promise<AssetRecord> {
  await takeRateToken(ctx.db, 'image_asset_upload', principalSubject(principal), ctx.clock());
  // an upload must say what it is; only previews of remote files may go by the bytes
  if (declaredType === null) throw imageAssetError('type_unsupported', 'body');
  const verdict = await verifyImage(bytes, declaredType);
  if (!verdict.ok) throw imageAssetError(verdict.refusal, 'body');
  const { mediaType, width, height } = verdict.image;
  return storeAsset(ctx, { accountId: principal.accountId, kind: 'image', bytes, mediaType, width, height, quotaCode: 'image_asset_limit' });
}
