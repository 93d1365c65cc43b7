import { renderKindOf } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { findOwnedRender } from './get-render.ts';
import { readAll } from '../storage/read-all.ts';

export interface GetRenderThumbnailOptions {
  accountId: string;
  jobId: string;
}

export interface RenderThumbnail {
  bytes: Buffer;
  mediaType: 'image/webp';
}

/** The longest side of a thumbnail, in pixels (twice the size the dashboard shows, for sharp screens). */
export const thumbnailEdge = 160;
/** Images beyond this are not decoded for a thumbnail (the largest render is 7680 x 7680). */
const maxInputPixels = 7680 * 7680;

/**
 * A small WebP of a render whose file is still kept, for the dashboard's history. An image's is
 * its own file scaled down here; a PDF's is the first page the worker drew and stored beside
 * the file (make-render-thumbnail.ts), since the web process runs no PDF rasteriser. Missing,
 * foreign, unfinished, removed or expired, or a PDF without one yet: 404.
 */
export async function getRenderThumbnail(ctx: ServiceContext, { accountId, jobId }: GetRenderThumbnailOptions): Promise<RenderThumbnail> {
  const kind = renderKindOf(jobId);
  if (!kind) throw notFound();
  const job = await findOwnedRender(ctx, { accountId, jobId, kind });
  const available = job.status === 'succeeded' && job.removedReason === null && job.expiresAt && job.expiresAt > ctx.clock();
  const key = kind === 'pdf' ? job.thumbnailKey : job.storageKey;
  if (!available || !key) throw notFound();
  const stored = await ctx.storage.open(key);
  if (!stored) throw notFound();
  if (kind === 'pdf') return { bytes: await readAll(stored.stream), mediaType: 'image/webp' };
  const { default: sharp } = await import('sharp');
  const resize = sharp({ limitInputPixels: maxInputPixels })
    .resize({ width: thumbnailEdge, height: thumbnailEdge, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 });
  stored.stream.on('error', (error) => resize.destroy(error));
  stored.stream.pipe(resize);
  return { bytes: await resize.toBuffer(), mediaType: 'image/webp' };
}
