// A kit's logo or font for the signed-in browser's own previews (the logo image, the font
// specimen's @font-face): the stored bytes through the core's openBrandAsset, never cached.
import { Readable } from 'node:stream';
import { DomainError, openBrandAsset } from '@svc/core';
import { lookupSession } from '../../../../../../src/dashboard/session.ts';
import { fileHeaders } from '../../../../../../src/http/views/image-assets.ts';

export async function GET(_request: Request, { params }: { params: Promise<{ brand_kit_id: string; asset_id: string }> }) {
  const found = await lookupSession();
  if (found.state !== 'signed_in') return new Response(null, { status: 401 });
  const { ctx, accountId } = found.session;
  const { brand_kit_id, asset_id } = await params;
  try {
    const content = await openBrandAsset(ctx, { accountId, brandKitId: brand_kit_id, assetId: asset_id });
    return new Response(Readable.toWeb(content.stream) as ReadableStream<Uint8Array>, { status: 200, headers: fileHeaders(content.mediaType, content.byteSize) });
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'not_found' || error.code === 'brand_kit_not_found')) return new Response(null, { status: 404 });
    throw error;
  }
}
