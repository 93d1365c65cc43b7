import { Readable } from 'node:stream';
import { previewImageUrlOperation } from '@svc/contracts';
import { previewImageUrl } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';
import { fileHeaders } from '../../../../src/http/views/image-assets.ts';

export const POST = handle(previewImageUrlOperation, async ({ ctx, principal, body }) => {
  const image = await previewImageUrl(ctx, { principal, url: body.url });
  return { status: 200, stream: Readable.toWeb(Readable.from([image.bytes])) as ReadableStream<Uint8Array>, headers: fileHeaders(image.mediaType, image.bytes.byteLength) };
});
