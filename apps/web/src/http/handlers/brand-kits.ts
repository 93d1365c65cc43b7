import { Readable } from 'node:stream';
import {
  archiveBrandKitOperation,
  createBrandAssetOperation,
  createBrandKitOperation,
  getBrandAssetOperation,
  getBrandKitOperation,
  listBrandKitsOperation,
  replaceBrandAssetOperation,
  updateBrandKitOperation,
} from '@svc/contracts';
import { archiveBrandKit, createBrandAsset, createBrandKit, getBrandKit, listBrandKits, openBrandAsset, replaceBrandAsset, updateBrandKit } from '@svc/core';
import { handle, type OperationHandlers } from '../handle.ts';
import { brandAssetBody, brandKitDetailBody, brandKitSummaryBody } from '../views/brand-kits.ts';
import { fileHeaders } from '../views/image-assets.ts';

export const brandKitHandlers = {
  createBrandKit: handle(createBrandKitOperation, async ({ ctx, principal, body }) => ({
    status: 201,
    body: brandKitDetailBody(await createBrandKit(ctx, { accountId: principal.accountId, request: body })),
  })),

  listBrandKits: handle(listBrandKitsOperation, async ({ ctx, principal, query }) => {
    const page = await listBrandKits(ctx, { accountId: principal.accountId, ...query });
    return { status: 200, body: { items: page.items.map(brandKitSummaryBody), next_cursor: page.nextCursor } };
  }),

  getBrandKit: handle(getBrandKitOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: brandKitDetailBody(await getBrandKit(ctx, { accountId: principal.accountId, brandKitId: params.brand_kit_id })),
  })),

  updateBrandKit: handle(updateBrandKitOperation, async ({ ctx, principal, params, body }) => ({
    status: 200,
    body: brandKitDetailBody(await updateBrandKit(ctx, { accountId: principal.accountId, brandKitId: params.brand_kit_id, changes: body })),
  })),

  archiveBrandKit: handle(archiveBrandKitOperation, async ({ ctx, principal, params }) => {
    await archiveBrandKit(ctx, { accountId: principal.accountId, brandKitId: params.brand_kit_id });
    return { status: 204 };
  }),

  createBrandAsset: handle(createBrandAssetOperation, async ({ ctx, principal, params, upload }) => ({
    status: 201,
    body: brandAssetBody(await createBrandAsset(ctx, { principal, brandKitId: params.brand_kit_id, declaredType: upload.mediaType, bytes: upload.bytes })),
  })),

  replaceBrandAsset: handle(replaceBrandAssetOperation, async ({ ctx, principal, params, upload }) => ({
    status: 201,
    body: brandAssetBody(
      await replaceBrandAsset(ctx, { principal, brandKitId: params.brand_kit_id, assetId: params.asset_id, declaredType: upload.mediaType, bytes: upload.bytes }),
    ),
  })),

  getBrandAsset: handle(getBrandAssetOperation, async ({ ctx, principal, params }) => {
    const content = await openBrandAsset(ctx, { accountId: principal.accountId, brandKitId: params.brand_kit_id, assetId: params.asset_id });
    return { status: 200, stream: Readable.toWeb(content.stream) as ReadableStream<Uint8Array>, headers: fileHeaders(content.mediaType, content.byteSize) };
  }),
} satisfies Partial<OperationHandlers>;
