import { Readable } from 'node:stream';
import { downloadFileOperation, imageOperations, pdfOperations } from '@svc/contracts';
import { createRender, deleteRender, getRender, listRenders, openDownload } from '@svc/core';
import { handle, type HandlerInput, type HandlerResult, type OperationHandlers } from '../handle.ts';
import { renderHistoryItem, renderJobBody } from '../views/renders.ts';

type Kind = 'pdf' | 'image';
/** The operations of either kind: one function answers an operation for both. */
type RenderOperations = typeof pdfOperations | typeof imageOperations;
type Answer<Op extends keyof RenderOperations> = (input: HandlerInput<RenderOperations[Op]>) => Promise<HandlerResult>;

/** POST /v1/pdf and /v1/image: 200 with the finished job, 202 while it is still queued or running. */
const create =
  (kind: Kind): Answer<'create'> =>
  async ({ ctx, principal, body, request }) => {
    const { job, finished } = await createRender(ctx, { principal, kind, request: body, idempotencyKey: request.headers.get('idempotency-key') });
    return { status: finished ? 200 : 202, body: await renderJobBody(ctx, job) };
  };

/** GET /v1/pdf and /v1/image: the history. */
const list =
  (kind: Kind): Answer<'list'> =>
  async ({ ctx, principal, query }) => {
    const page = await listRenders(ctx, { accountId: principal.accountId, kind, ...query });
    return { status: 200, body: { items: page.items.map(renderHistoryItem), next_cursor: page.nextCursor } };
  };

const get =
  (kind: Kind): Answer<'get'> =>
  async ({ ctx, principal, params }) => ({
    status: 200,
    body: await renderJobBody(ctx, await getRender(ctx, { accountId: principal.accountId, kind, jobId: params.id })),
  });

const remove =
  (kind: Kind): Answer<'remove'> =>
  async ({ ctx, principal, params }) => ({
    status: 200,
    body: await renderJobBody(ctx, await deleteRender(ctx, { accountId: principal.accountId, kind, jobId: params.id })),
  });

export const renderHandlers = {
  createPdf: handle(pdfOperations.create, create('pdf')),
  listPdfs: handle(pdfOperations.list, list('pdf')),
  getPdf: handle(pdfOperations.get, get('pdf')),
  deletePdf: handle(pdfOperations.remove, remove('pdf')),
  createImage: handle(imageOperations.create, create('image')),
  listImages: handle(imageOperations.list, list('image')),
  getImage: handle(imageOperations.get, get('image')),
  deleteImage: handle(imageOperations.remove, remove('image')),

  downloadFile: handle(downloadFileOperation, async ({ ctx, params }) => {
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
  }),
} satisfies Partial<OperationHandlers>;
