import type { Readable } from 'node:stream';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { extensionOf } from './filename.ts';
import { findOwnedRender, type GetRenderOptions } from './get-render.ts';

export interface OpenedRenderFile {
  stream: Readable;
  mediaType: string;
  byteSize: number;
  /** The download name with its extension. */
  filename: string;
}

/**
 * An owned render's file, for the dashboard to show in the browser under the session (no
 * signed link). Missing, foreign, unfinished, removed or expired: 404.
 */
export async function openRenderFile(ctx: ServiceContext, options: GetRenderOptions): Promise<OpenedRenderFile> {
  const job = await findOwnedRender(ctx, options);
  if (job.expiresAt === null || job.expiresAt <= ctx.clock()) throw notFound();
  return openKeptFile(ctx, job);
}

/** The file of a succeeded job that still has it, with its download name; 404 otherwise. */
export async function openKeptFile(ctx: ServiceContext, job: RenderJobRecord | null): Promise<OpenedRenderFile> {
  if (!job || job.status !== 'succeeded' || job.removedReason !== null || !job.storageKey || !job.mediaType) throw notFound();
  const stored = await ctx.storage.open(job.storageKey);
  if (!stored) throw notFound();
  return {
    stream: stored.stream,
    mediaType: job.mediaType,
    byteSize: stored.byteSize,
    filename: `${job.filename}.${extensionOf[job.mediaType] ?? 'bin'}`,
  };
}
