// Batches, carousels and image packs: one function answers an operation for all three kinds.
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
import { handle, type HandlerInput, type HandlerResult, type OperationHandlers } from '../handle.ts';
import { batchBody, carouselBody, imagePackBody } from '../views/groups.ts';

const kinds = {
  batch: { create: createBatch, body: batchBody },
  carousel: { create: createCarousel, body: carouselBody },
  image_pack: { create: createImagePack, body: imagePackBody },
} as const;

type GroupOperations = typeof batchOperations | typeof carouselOperations | typeof imagePackOperations;
type Answer<Op extends keyof GroupOperations> = (input: HandlerInput<GroupOperations[Op]>) => Promise<HandlerResult>;
type Body = (ctx: ServiceContext, view: RenderGroupView) => Promise<unknown>;

/** POST /v1/batches, /v1/carousels, /v1/image-packs: 201 with the group, also for a replay (marked by a header). */
const create =
  (kind: GroupKind): Answer<'create'> =>
  async ({ ctx, principal, body: request, request: http }) => {
    const { create: createGroup, body } = kinds[kind];
    const { groupId, replayed } = await (createGroup as (ctx: ServiceContext, options: object) => Promise<{ groupId: string; replayed: boolean }>)(ctx, {
      principal,
      request,
      idempotencyKey: http.headers.get('idempotency-key'),
    });
    const view = await loadRenderGroup(ctx.db, groupId);
    if (!view) throw notFound();
    return { status: 201, body: await (body as Body)(ctx, view), headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  };

const get =
  (kind: GroupKind): Answer<'get'> =>
  async ({ ctx, principal, params }) => ({
    status: 200,
    body: await (kinds[kind].body as Body)(ctx, await getRenderGroup(ctx, { accountId: principal.accountId, kind, groupId: params.id })),
  });

const retry =
  (kind: GroupKind): Answer<'retry'> =>
  async ({ ctx, principal, params }) => ({
    status: 200,
    body: await (kinds[kind].body as Body)(ctx, await retryRenderGroup(ctx, { principal, kind, groupId: params.id })),
  });

/** The streamed ZIP behind a signed archive link. */
const archive =
  (kind: GroupKind): Answer<'archive'> =>
  async ({ ctx, params }) => {
    const zip = await openGroupArchive(ctx, kind, params.token);
    return {
      status: 200,
      stream: Readable.toWeb(zip.stream) as ReadableStream<Uint8Array>,
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${zip.filename}"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    };
  };

export const groupHandlers = {
  createBatch: handle(batchOperations.create, create('batch')),
  getBatch: handle(batchOperations.get, get('batch')),
  retryBatch: handle(batchOperations.retry, retry('batch')),
  downloadBatchArchive: handle(batchOperations.archive, archive('batch')),
  cancelBatch: handle(cancelBatchOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: await batchBody(ctx, await cancelBatch(ctx, { accountId: principal.accountId, batchId: params.id })),
  })),

  createCarousel: handle(carouselOperations.create, create('carousel')),
  getCarousel: handle(carouselOperations.get, get('carousel')),
  retryCarousel: handle(carouselOperations.retry, retry('carousel')),
  downloadCarouselArchive: handle(carouselOperations.archive, archive('carousel')),

  createImagePack: handle(imagePackOperations.create, create('image_pack')),
  getImagePack: handle(imagePackOperations.get, get('image_pack')),
  retryImagePack: handle(imagePackOperations.retry, retry('image_pack')),
  downloadImagePackArchive: handle(imagePackOperations.archive, archive('image_pack')),
} satisfies Partial<OperationHandlers>;
