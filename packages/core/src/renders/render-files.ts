import type { ServiceContext } from '../shared/context.ts';

/**
 * Where a PDF's first-page thumbnail is kept: beside its file, in the same storage
 * (`acct/pdf_…-1.pdf` -> `acct/pdf_…-1.thumbnail.webp`), so whatever removes the file can name
 * the thumbnail without reading the job again.
 */
export function thumbnailKeyOf(storageKey: string): string {
  return `${storageKey.replace(/\.[a-z]+$/, '')}.thumbnail.webp`;
}

/** A job's stored objects: its file and, for a PDF, its thumbnail (one never made counts as removed). */
export async function removeRenderFiles(ctx: ServiceContext, job: { kind: string; storageKey: string | null }): Promise<void> {
  if (!job.storageKey) return;
  await ctx.storage.remove(job.storageKey);
  if (job.kind === 'pdf') await ctx.storage.remove(thumbnailKeyOf(job.storageKey));
}
