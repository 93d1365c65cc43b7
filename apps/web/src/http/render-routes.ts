import { imageOperations, pdfOperations } from '@svc/contracts';
import { createRender, deleteRender, getRender, listRenders } from '@svc/core';
import { completionWaiter } from './context.ts';
import { handle } from './handle.ts';

type Kind = 'pdf' | 'image';
const operationsOf = (kind: Kind) => (kind === 'pdf' ? pdfOperations : imageOperations);

/** POST (create) and GET (history) of /v1/pdf and /v1/image. */
export function renderCollectionRoutes(kind: Kind) {
  const [create, list] = operationsOf(kind);
  return {
    POST: handle(create, async ({ ctx, caller, body, request }) => {
      const { status, job } = await createRender(ctx, {
        caller,
        kind,
        request: body,
        idempotencyKey: request.headers.get('idempotency-key'),
        waiter: completionWaiter(),
      });
      return { status, body: job };
    }),
    GET: handle(list, async ({ ctx, caller, query }) => ({
      status: 200,
      body: await listRenders(ctx, { accountId: caller.accountId, kind, ...query }),
    })),
  };
}

/** GET and DELETE of /v1/pdf/{id} and /v1/image/{id}. */
export function renderItemRoutes(kind: Kind) {
  const [, , get, remove] = operationsOf(kind);
  return {
    GET: handle(get, async ({ ctx, caller, params }) => ({
      status: 200,
      body: await getRender(ctx, { accountId: caller.accountId, kind, jobId: params.id ?? '' }),
    })),
    DELETE: handle(remove, async ({ ctx, caller, params }) => ({
      status: 200,
      body: await deleteRender(ctx, { accountId: caller.accountId, kind, jobId: params.id ?? '' }),
    })),
  };
}
