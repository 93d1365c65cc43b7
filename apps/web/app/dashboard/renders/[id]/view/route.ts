// A render's file shown in the browser's own viewer (inline), read under the session: the
// dashboard's "View" opens it in a new tab without minting a link anyone else could use.
import { Readable } from 'node:stream';
import { openRenderFile } from '@svc/core';
import { serveRenderFile } from '../render-file-route.ts';

export function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveRenderFile(params, 'This file is no longer kept (it expired or was deleted), or there is no such render.', async ({ ctx, ...render }) => {
    const file = await openRenderFile(ctx, render);
    return new Response(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, {
      headers: {
        'content-type': file.mediaType,
        'content-length': String(file.byteSize),
        'content-disposition': `inline; filename="${file.filename}"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
