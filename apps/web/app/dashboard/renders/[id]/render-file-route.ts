// What the routes serving a render's file (download, view) share: the session's render named
// by the route, and the plain answer for a file that is not there.
import { DomainError, type ServiceContext } from '@svc/core';
import { requireSession } from '../../../../src/dashboard/session.ts';
import { renderKindOf } from '../ids.ts';

export interface SessionRender {
  ctx: ServiceContext;
  accountId: string;
  kind: 'pdf' | 'image';
  jobId: string;
}

/**
 * Answers `serve(render)` for the signed-in account's render named by the route's id. An id of
 * no render kind, and any render the account does not hold, answer `missing` as a plain 404.
 */
export async function serveRenderFile(params: Promise<{ id: string }>, missing: string, serve: (render: SessionRender) => Promise<Response>): Promise<Response> {
  const { ctx, accountId } = await requireSession();
  const { id } = await params;
  const kind = renderKindOf(id);
  try {
    if (!kind) throw new DomainError('not_found');
    return await serve({ ctx, accountId, kind, jobId: id });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return fileNotFound(missing);
    throw error;
  }
}

/** A plain-text 404 the browser shows as it is (the file routes open in their own tab). */
export function fileNotFound(message: string): Response {
  return new Response(message, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}
