import { renderKindOf } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { findOwnedRender } from './get-render.ts';
import { storeRenderThumbnail } from './store-render-thumbnail.ts';
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

// first requests for one image in this process share its one decode
const making = new Map<string, Promise<Buffer>>();

/**
 * A small WebP of a render whose file is still kept, for the dashboard's history, stored beside
 * the file. A PDF's is the first page the worker drew (make-render-thumbnail.ts), since the web
 * process runs no PDF rasteriser. An image's is its own file scaled down at the first request
 * and stored the same way, so a large image (7680 x 4320: about half a CPU-second and 30 MB to
 * decode) is decoded once, not at every view of the history. Missing, foreign, unfinished,
 * removed or expired, or a PDF without one yet: 404.
 */
export async function getRenderThumbnail(ctx: ServiceContext, { accountId, jobId }: GetRenderThumbnailOptions): Promise<RenderThumbnail> {
  const kind = renderKindOf(jobId);
  if (!kind) throw notFound();
  const job = await findOwnedRender(ctx, { accountId, jobId, kind });
  const available = job.status === 'succeeded' && job.removedReason === null && job.expiresAt && job.expiresAt > ctx.clock();
  if (!available || !job.storageKey) throw notFound();
  const kept = job.thumbnailKey ? await ctx.storage.open(job.thumbnailKey) : null;
  if (kept) return { bytes: await readAll(kept.stream), mediaType: 'image/webp' };
  if (kind === 'pdf') throw notFound();
  let made = making.get(job.id);
  if (!made) {
    made = makeImageThumbnail(ctx, job, job.storageKey).finally(() => making.delete(job.id));
    making.set(job.id, made);
  }
  return { bytes: await made, mediaType: 'image/webp' };
}

async function makeImageThumbnail(ctx: ServiceContext, job: RenderJobRecord, storageKey: string): Promise<Buffer> {
  const stored = await ctx.storage.open(storageKey);
  if (!stored) throw notFound();
  const { default: sharp } = await import('sharp');
  const resize = sharp({ limitInputPixels: maxInputPixels })
    .resize({ width: thumbnailEdge, height: thumbnailEdge, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 });
  stored.stream.on('error', (error) => resize.destroy(error));
  stored.stream.pipe(resize);
  const thumbnail = await resize.toBuffer();
  // a file removed meanwhile keeps no thumbnail; this answer is still the one asked for
  await storeRenderThumbnail(ctx, { jobId: job.id, storageKey, thumbnail });
  return thumbnail;
}
