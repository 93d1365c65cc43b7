import { Readable } from 'node:stream';
import { batchOperations, carouselOperations, imagePackOperations } from '@svc/contracts';
import {
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
import { handle } from './handle.ts';
import { batchBody, carouselBody, imagePackBody } from './views/groups.ts';

const kinds = {
  batch: { operations: batchOperations, create: createBatch, body: batchBody },
  carousel: { operations: carouselOperations, create: createCarousel, body: carouselBody },
  image_pack: { operations: imagePackOperations, create: createImagePack, body: imagePackBody },
} as const;

type Body = (ctx: ServiceContext, view: RenderGroupView) => Promise<unknown>;

/** POST /v1/batches, /v1/carousels, /v1/image-packs: 201 with the group, also for a replay (marked by a header). */
export function groupCreateRoute(kind: GroupKind) {
  const { operations, create, body } = kinds[kind];
  return handle(operations.create, async ({ ctx, principal, body: request, request: http }) => {
    const { groupId, replayed } = await (create as (ctx: ServiceContext, options: object) => Promise<{ groupId: string; replayed: boolean }>)(ctx, {
      principal,
      request,
      idempotencyKey: http.headers.get('idempotency-key'),
    });
    const view = await loadRenderGroup(ctx.db, groupId);
    if (!view) throw notFound();
    return { status: 201, body: await (body as Body)(ctx, view), headers: replayed ? { 'idempotent-replayed': 'true' } : undefined };
  });
}

export function groupGetRoute(kind: GroupKind) {
  const { operations, body } = kinds[kind];
  return handle(operations.get, async ({ ctx, principal, params }) => ({
    status: 200,
    body: await (body as Body)(ctx, await getRenderGroup(ctx, { accountId: principal.accountId, kind, groupId: params.id })),
  }));
}

export function groupRetryRoute(kind: GroupKind) {
  const { operations, body } = kinds[kind];
  return handle(operations.retry, async ({ ctx, principal, params }) => ({
    status: 200,
    body: await (body as Body)(ctx, await retryRenderGroup(ctx, { principal, kind, groupId: params.id })),
  }));
}

/** The streamed ZIP behind a signed archive link. */
export function groupArchiveRoute(kind: GroupKind) {
  const { operations } = kinds[kind];
  return handle(operations.archive, async ({ ctx, params }) => {
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
  });
}
