import { createBrandAssetOperation } from '@svc/contracts';
import { createBrandAsset } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { brandAssetBody } from '../../../../../src/http/views/brand-kits.ts';

export const POST = handle(createBrandAssetOperation, async ({ ctx, principal, params, upload }) => ({
  status: 201,
  body: brandAssetBody(await createBrandAsset(ctx, { principal, brandKitId: params.brand_kit_id, declaredType: upload.mediaType, bytes: upload.bytes })),
}));
