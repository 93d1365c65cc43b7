import { imageOperations, pdfOperations } from '@svc/contracts';
import { createRender, deleteRender, getRender, listRenders } from '@svc/core';
import { handle } from './handle.ts';
import { renderHistoryItem, renderJobBody } from './views/renders.ts';

type Kind = 'pdf' | 'image';
const operationsOf = (kind: Kind) => (kind === 'pdf' ? pdfOperations : imageOperations);

/** POST (create) and GET (history) of /v1/pdf and /v1/image. */
export function renderCollectionRoutes(kind: Kind) {
  const [create, list] = operationsOf(kind);
  return {
    POST: handle(create, async ({ ctx, principal, body, request }) => {
      const { job, finished } = await createRender(ctx, {
        principal,
        kind,
        request: body,
        idempotencyKey: request.headers.get('idempotency-key'),
      });
      // 200 with the finished job, 202 while it is still queued or running
      return { status: finished ? 200 : 202, body: await renderJobBody(ctx, job) };
    }),
    GET: handle(list, async ({ ctx, principal, query }) => {
      const page = await listRenders(ctx, { accountId: principal.accountId, kind, ...query });
      return { status: 200, body: { items: page.items.map(renderHistoryItem), next_cursor: page.nextCursor } };
    }),
  };
}

/** GET and DELETE of /v1/pdf/{id} and /v1/image/{id}. */
export function renderItemRoutes(kind: Kind) {
  const [, , get, remove] = operationsOf(kind);
  return {
    GET: handle(get, async ({ ctx, principal, params }) => ({
      status: 200,
      body: await renderJobBody(ctx, await getRender(ctx, { accountId: principal.accountId, kind, jobId: params.id })),
    })),
    DELETE: handle(remove, async ({ ctx, principal, params }) => ({
      status: 200,
      body: await renderJobBody(ctx, await deleteRender(ctx, { accountId: principal.accountId, kind, jobId: params.id })),
    })),
  };
}
