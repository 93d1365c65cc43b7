import type { ServiceContext } from '../shared/context.ts';

/**
 * Where a render's thumbnail (a PDF's first page, an image scaled down) is kept: beside its
 * file, in the same storage (`acct/pdf_…-1.pdf` -> `acct/pdf_…-1.thumbnail.webp`), so whatever
 * removes the file can name the thumbnail without reading the job again.
 */
export function thumbnailKeyOf(storageKey: string): string {
  return `${storageKey.replace(/\.[a-z]+$/, '')}.thumbnail.webp`;
}

/** A job's stored objects: its file and its thumbnail (one never made counts as removed). */
export async function removeRenderFiles(ctx: ServiceContext, job: { storageKey: string | null }): Promise<void> {
  if (!job.storageKey) return;
  await ctx.storage.remove(job.storageKey);
  await ctx.storage.remove(thumbnailKeyOf(job.storageKey));
}
