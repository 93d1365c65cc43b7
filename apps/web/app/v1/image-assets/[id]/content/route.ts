import { Readable } from 'node:stream';
import { getImageAssetContentOperation } from '@svc/contracts';
import { openAssetContent } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { fileHeaders } from '../../../../../src/http/views/image-assets.ts';

export const GET = handle(getImageAssetContentOperation, async ({ ctx, principal, params }) => {
  const content = await openAssetContent(ctx, { accountId: principal.accountId, assetId: params.id });
  return { status: 200, stream: Readable.toWeb(content.stream) as ReadableStream<Uint8Array>, headers: fileHeaders(content.mediaType, content.byteSize) };
});
