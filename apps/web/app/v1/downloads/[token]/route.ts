import { Readable } from 'node:stream';
import { downloadFileOperation } from '@svc/contracts';
import { openDownload } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const GET = handle(downloadFileOperation, async ({ ctx, params }) => {
  const file = await openDownload(ctx, params.token);
  return {
    status: 200,
    stream: Readable.toWeb(file.stream) as ReadableStream<Uint8Array>,
    headers: {
      'content-type': file.mediaType,
      'content-length': String(file.byteSize),
      'content-disposition': `attachment; filename="${file.filename}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  };
});
