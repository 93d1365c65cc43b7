import type { ServiceContext } from '../shared/context.ts';
import { thumbnailKeyOf } from './render-files.ts';

export interface StoreRenderThumbnailOptions {
  jobId: string;
  /** The file the thumbnail was made from: it is kept beside it and goes with it. */
  storageKey: string;
  thumbnail: Uint8Array;
}

/**
 * Stores a render's thumbnail beside its file and records it on the job, so it is made once and
 * served from then on. Returns false when the file was deleted or expired meanwhile (its removal
 * may have run before this put, so the thumbnail would outlive it): the thumbnail goes too.
 */
export async function storeRenderThumbnail(ctx: ServiceContext, { jobId, storageKey, thumbnail }: StoreRenderThumbnailOptions): Promise<boolean> {
  const thumbnailKey = thumbnailKeyOf(storageKey);
  await ctx.storage.put(thumbnailKey, thumbnail, { contentType: 'image/webp' });
  const recorded = await ctx.db.renderJob.updateMany({ where: { id: jobId, storageKey, removedReason: null }, data: { thumbnailKey } });
  if (recorded.count === 0 || !(await ctx.storage.exists(storageKey))) {
    await ctx.storage.remove(thumbnailKey);
    await ctx.db.renderJob.updateMany({ where: { id: jobId, thumbnailKey }, data: { thumbnailKey: null } });
    return false;
  }
  return true;
}
