import { archiveBrandKitOperation, getBrandKitOperation, updateBrandKitOperation } from '@svc/contracts';
import { archiveBrandKit, getBrandKit, updateBrandKit } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';
import { brandKitDetailBody } from '../../../../src/http/views/brand-kits.ts';

export const GET = handle(getBrandKitOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: brandKitDetailBody(await getBrandKit(ctx, { accountId: principal.accountId, brandKitId: params.brand_kit_id })),
}));

export const PATCH = handle(updateBrandKitOperation, async ({ ctx, principal, params, body }) => ({
  status: 200,
  body: brandKitDetailBody(await updateBrandKit(ctx, { accountId: principal.accountId, brandKitId: params.brand_kit_id, changes: body })),
}));

export const DELETE = handle(archiveBrandKitOperation, async ({ ctx, principal, params }) => {
  await archiveBrandKit(ctx, { accountId: principal.accountId, brandKitId: params.brand_kit_id });
  return { status: 204 };
});
