import type { ServiceContext } from '../shared/context.ts';
import { passwordErased } from './finish-render.ts';
import { storeRenderThumbnail } from './store-render-thumbnail.ts';
import { readAll } from '../storage/read-all.ts';

export interface MakeRenderThumbnailOptions {
  jobId: string;
}

/** A PDF above this is not read into memory for a thumbnail (renders stay far below it). */
const maxPdfBytes = 100 * 1024 * 1024;

/**
 * A succeeded PDF's first page drawn small and stored beside the file, for the dashboard's
 * history: queued when the history first shows the PDF, never as part of the render, so no
 * render waits for the rasteriser (docs/decisions/renders.md, PDF thumbnails). Idempotent: a job
 * that has one, lost its file, is encrypted or is not a PDF is left as it is. A PDF poppler
 * cannot draw keeps no thumbnail (logged, not retried); the dashboard shows its PDF mark.
 * Returns whether a thumbnail was stored.
 */
export async function makeRenderThumbnail(ctx: ServiceContext, { jobId }: MakeRenderThumbnailOptions): Promise<boolean> {
  const rasterise = ctx.renderEngine.pdfThumbnail;
  if (!rasterise) return false;
  const job = await ctx.db.renderJob.findUnique({ where: { id: jobId } });
  const kept = job?.status === 'succeeded' && job.kind === 'pdf' && job.removedReason === null && job.expiresAt !== null && job.expiresAt > ctx.clock();
  if (!job || !kept || !job.storageKey || job.thumbnailKey !== null || passwordErased(job.options)) return false;
  const { storageKey } = job;
  const stored = await ctx.storage.open(storageKey);
  if (!stored || stored.byteSize > maxPdfBytes) {
    stored?.stream.destroy();
    return false;
  }
  const pdf = await readAll(stored.stream);
  let thumbnail: Uint8Array;
  try {
    thumbnail = await rasterise.call(ctx.renderEngine, pdf);
  } catch (error) {
    ctx.logger.warn('pdf thumbnail not made', { jobId, error: String(error) });
    return false;
  }
  return storeRenderThumbnail(ctx, { jobId, storageKey, thumbnail });
}
