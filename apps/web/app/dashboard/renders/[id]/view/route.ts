// A render's file shown in the browser's own viewer (inline), read under the session: the
// dashboard's "View" opens it in a new tab without minting a link anyone else could use.
import { Readable } from 'node:stream';
import { DomainError, openRenderFile } from '@svc/core';
import { requireSession } from '../../../../../src/dashboard/session.ts';
import { renderKindOf } from '../../ids.ts';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { ctx, accountId } = await requireSession();
  const { id } = await params;
  const kind = renderKindOf(id);
  try {
    if (!kind) throw new DomainError('not_found');
    const file = await openRenderFile(ctx, { accountId, kind, jobId: id });
    return new Response(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, {
      headers: {
        'content-type': file.mediaType,
        'content-length': String(file.byteSize),
        'content-disposition': `inline; filename="${file.filename}"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') {
      return new Response('This file is no longer kept (it expired or was deleted), or there is no such render.', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      });
    }
    throw error;
  }
}
