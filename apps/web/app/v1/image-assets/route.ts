import { createImageAssetOperation } from '@svc/contracts';
import { createImageAsset } from '@svc/core';
import { handle } from '../../../src/http/handle.ts';
import { uploadedImageBody } from '../../../src/http/views/image-assets.ts';

export const POST = handle(createImageAssetOperation, async ({ ctx, principal, upload }) => ({
  status: 201,
  body: uploadedImageBody(await createImageAsset(ctx, { principal, declaredType: upload.mediaType, bytes: upload.bytes })),
}));
