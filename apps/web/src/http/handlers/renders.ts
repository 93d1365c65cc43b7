import { Readable } from 'node:stream';
import { downloadFileOperation, imageOperations, pdfOperations } from '@svc/contracts';
import { createRender, deleteRender, getRender, getRenderReport, listRenders, openDownload } from '@svc/core';
import { handle, handleKind, type KindAnswers, type OperationHandlers } from '../handle.ts';
import { renderHistoryItem, renderJobBody } from '../views/renders.ts';

type Kind = 'pdf' | 'image';

/** The answers of /v1/pdf and /v1/image, the same for both kinds. */
function answers(kind: Kind): KindAnswers<typeof pdfOperations | typeof imageOperations> {
  return {
    // 200 with the finished job, 202 while it is still queued or running
    create: async ({ ctx, principal, body, idempotencyKey }) => {
      const { job, finished } = await createRender(ctx, { principal, kind, request: body, idempotencyKey });
      return { status: finished ? 200 : 202, body: await renderJobBody(ctx, job) };
    },
    list: async ({ ctx, principal, query }) => {
      const page = await listRenders(ctx, { accountId: principal.accountId, kind, ...query });
      return { status: 200, body: { items: page.items.map(renderHistoryItem), next_cursor: page.nextCursor } };
    },
    get: async ({ ctx, principal, params }) => ({
      status: 200,
      body: await renderJobBody(ctx, await getRender(ctx, { accountId: principal.accountId, kind, jobId: params.id })),
    }),
    remove: async ({ ctx, principal, params }) => ({
      status: 200,
      body: await renderJobBody(ctx, await deleteRender(ctx, { accountId: principal.accountId, kind, jobId: params.id })),
    }),
    report: async ({ ctx, principal, params }) => ({
      status: 200,
      body: await getRenderReport(ctx, { accountId: principal.accountId, kind, jobId: params.id }),
    }),
  };
}

export const renderHandlers = {
  // createPdf, listPdfs, getPdf, deletePdf, getPdfReport
  ...handleKind(pdfOperations, answers('pdf')),
  // createImage, listImages, getImage, deleteImage, getImageReport
  ...handleKind(imageOperations, answers('image')),

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
