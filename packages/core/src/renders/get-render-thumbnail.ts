import sharp from 'sharp';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { findOwnedRender, type GetRenderOptions } from './get-render.ts';

export interface RenderThumbnail {
  bytes: Buffer;
  mediaType: 'image/webp';
}

/** The longest side of a thumbnail, in pixels (twice the size the dashboard shows, for sharp screens). */
export const thumbnailEdge = 160;
/** Images beyond this are not decoded for a thumbnail (the largest render is 7680 x 7680). */
const maxInputPixels = 7680 * 7680;

/**
 * A small WebP of an image render whose file is still kept, for the dashboard's history.
 * PDFs have none: the dashboard shows a PDF mark with the page count instead, since the web
 * machine has no rasteriser for PDF pages (docs/dashboard.md, Render thumbnails). Missing, foreign, unfinished,
 * removed or expired: 404.
 */
export async function getRenderThumbnail(ctx: ServiceContext, options: Omit<GetRenderOptions, 'kind'>): Promise<RenderThumbnail> {
  const job = await findOwnedRender(ctx, { ...options, kind: 'image' });
  const available = job.status === 'succeeded' && job.removedReason === null && job.storageKey && job.expiresAt && job.expiresAt > ctx.clock();
  if (!available || !job.storageKey) throw notFound();
  const stored = await ctx.storage.open(job.storageKey);
  if (!stored) throw notFound();
  const resize = sharp({ limitInputPixels: maxInputPixels })
    .resize({ width: thumbnailEdge, height: thumbnailEdge, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 });
  stored.stream.on('error', (error) => resize.destroy(error));
  stored.stream.pipe(resize);
  return { bytes: await resize.toBuffer(), mediaType: 'image/webp' };
}
