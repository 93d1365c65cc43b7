import { Readable } from 'node:stream';
import { getBrandAssetOperation, replaceBrandAssetOperation } from '@svc/contracts';
import { openBrandAsset, replaceBrandAsset } from '@svc/core';
import { handle } from '../../../../../../src/http/handle.ts';
import { brandAssetBody } from '../../../../../../src/http/views/brand-kits.ts';
import { fileHeaders } from '../../../../../../src/http/views/image-assets.ts';

export const GET = handle(getBrandAssetOperation, async ({ ctx, principal, params }) => {
  const content = await openBrandAsset(ctx, { accountId: principal.accountId, brandKitId: params.brand_kit_id, assetId: params.asset_id });
  return { status: 200, stream: Readable.toWeb(content.stream) as ReadableStream<Uint8Array>, headers: fileHeaders(content.mediaType, content.byteSize) };
});

export const PUT = handle(replaceBrandAssetOperation, async ({ ctx, principal, params, upload }) => ({
  status: 201,
  body: brandAssetBody(
    await replaceBrandAsset(ctx, { principal, brandKitId: params.brand_kit_id, assetId: params.asset_id, declaredType: upload.mediaType, bytes: upload.bytes }),
  ),
}));
