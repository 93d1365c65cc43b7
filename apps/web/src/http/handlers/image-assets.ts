import { Readable } from 'node:stream';
import { createImageAssetOperation, getImageAssetContentOperation, previewImageUrlOperation } from '@svc/contracts';
import { createImageAsset, openAssetContent, previewImageUrl } from '@svc/core';
import { handle, type OperationHandlers } from '../handle.ts';
import { fileHeaders, uploadedImageBody } from '../views/image-assets.ts';

export const imageAssetHandlers = {
  createImageAsset: handle(createImageAssetOperation, async ({ ctx, principal, upload }) => ({
    status: 201,
    body: uploadedImageBody(await createImageAsset(ctx, { principal, declaredType: upload.mediaType, bytes: upload.bytes })),
  })),

  previewImageUrl: handle(previewImageUrlOperation, async ({ ctx, principal, body }) => {
    const image = await previewImageUrl(ctx, { principal, url: body.url });
    return { status: 200, stream: Readable.toWeb(Readable.from([image.bytes])) as ReadableStream<Uint8Array>, headers: fileHeaders(image.mediaType, image.bytes.byteLength) };
  }),

  getImageAssetContent: handle(getImageAssetContentOperation, async ({ ctx, principal, params }) => {
    const content = await openAssetContent(ctx, { accountId: principal.accountId, assetId: params.id });
    return { status: 200, stream: Readable.toWeb(content.stream) as ReadableStream<Uint8Array>, headers: fileHeaders(content.mediaType, content.byteSize) };
  }),
} satisfies Partial<OperationHandlers>;
