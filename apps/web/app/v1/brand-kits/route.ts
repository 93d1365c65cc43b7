import { createBrandKitOperation, listBrandKitsOperation } from '@svc/contracts';
import { createBrandKit, listBrandKits } from '@svc/core';
import { handle } from '../../../src/http/handle.ts';
import { brandKitDetailBody, brandKitSummaryBody } from '../../../src/http/views/brand-kits.ts';

export const POST = handle(createBrandKitOperation, async ({ ctx, principal, body }) => ({
  status: 201,
  body: brandKitDetailBody(await createBrandKit(ctx, { accountId: principal.accountId, request: body })),
}));

export const GET = handle(listBrandKitsOperation, async ({ ctx, principal, query }) => {
  const page = await listBrandKits(ctx, { accountId: principal.accountId, ...query });
  return { status: 200, body: { items: page.items.map(brandKitSummaryBody), next_cursor: page.nextCursor } };
});
