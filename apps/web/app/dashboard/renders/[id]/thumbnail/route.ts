// A render shown small for the history list (an image scaled down, a PDF's first page as the worker drew it), checked against the session.
import { DomainError, getRenderThumbnail } from '@svc/core';
import { requireSession } from '../../../../../src/dashboard/session.ts';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { ctx, accountId } = await requireSession();
  const { id } = await params;
  try {
    const thumbnail = await getRenderThumbnail(ctx, { accountId, jobId: id });
    return new Response(new Uint8Array(thumbnail.bytes), {
      headers: { 'content-type': thumbnail.mediaType, 'cache-control': 'private, max-age=300', 'x-content-type-options': 'nosniff' },
    });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return new Response(null, { status: 404, headers: { 'cache-control': 'no-store' } });
    throw error;
  }
}
