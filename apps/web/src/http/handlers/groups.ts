import { Readable } from 'node:stream';
import { batchOperations, cancelBatchOperation, carouselOperations, imagePackOperations } from '@svc/contracts';
import {
  cancelBatch,
  createBatch,
  createCarousel,
  createImagePack,
  getRenderGroup,
  type GroupKind,
  loadRenderGroup,
  notFound,
  openGroupArchive,
  type RenderGroupView,
  retryRenderGroup,
  type ServiceContext,
} from '@svc/core';
import { handle, handleKind, type KindAnswers, type OperationHandlers } from '../handle.ts';
import { batchBody, carouselBody, imagePackBody } from '../views/groups.ts';

const kinds = {
  batch: { create: createBatch, body: batchBody },
  carousel: { create: createCarousel, body: carouselBody },
  image_pack: { create: createImagePack, body: imagePackBody },
} as const;

type Body = (ctx: ServiceContext, view: RenderGroupView) => Promise<unknown>;

/** The answers of /v1/batches, /v1/carousels and /v1/image-packs, the same for the three kinds. */
function answers(kind: GroupKind): KindAnswers<typeof batchOperations | typeof carouselOperations | typeof imagePackOperations> {
  const body = kinds[kind].body as Body;
  return {
    // 201 with the group, also for a replay (marked by a header)
    create: async ({ ctx, principal, body: request, idempotencyKey }) => {
      const create = kinds[kind].create as (ctx: ServiceContext, options: object) => Promise<{ groupId: string; replayed: boolean }>;
      const { groupId, replayed } = await create(ctx, { principal, request, idempotencyKey });
      const view = await loadRenderGroup(ctx.db, groupId);
      if (!view) throw notFound();
      return { status: 201, body: await body(ctx, view), headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
    },
    get: async ({ ctx, principal, params }) => ({
      status: 200,
      body: await body(ctx, await getRenderGroup(ctx, { accountId: principal.accountId, kind, groupId: params.id })),
    }),
    retry: async ({ ctx, principal, params }) => ({
      status: 200,
      body: await body(ctx, await retryRenderGroup(ctx, { principal, kind, groupId: params.id })),
    }),
    // the streamed ZIP behind a signed archive link
    archive: async ({ ctx, params }) => {
      const archive = await openGroupArchive(ctx, kind, params.token);
      return {
        status: 200,
        stream: Readable.toWeb(archive.stream) as ReadableStream<Uint8Array>,
        headers: {
          'content-type': 'application/zip',
          'content-disposition': `attachment; filename="${archive.filename}"`,
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
        },
      };
    },
  };
}

export const groupHandlers = {
  // createBatch, getBatch, retryBatch, downloadBatchArchive
  ...handleKind(batchOperations, answers('batch')),
  cancelBatch: handle(cancelBatchOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: await batchBody(ctx, await cancelBatch(ctx, { accountId: principal.accountId, batchId: params.id })),
  })),
  // createCarousel, getCarousel, retryCarousel, downloadCarouselArchive
  ...handleKind(carouselOperations, answers('carousel')),
  // createImagePack, getImagePack, retryImagePack, downloadImagePackArchive
  ...handleKind(imagePackOperations, answers('image_pack')),
} satisfies Partial<OperationHandlers>;
