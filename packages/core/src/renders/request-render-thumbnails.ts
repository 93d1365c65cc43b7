import { Prisma } from '@svc/db';
import { addJobOf } from '../jobs/enqueue.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { passwordErased } from './finish-render.ts';

export interface RequestRenderThumbnailsOptions {
  accountId: string;
  /** The jobs a page is about to show. */
  jobs: RenderJobRecord[];
}

/**
 * Asks the worker for the first page of the shown PDFs that have none yet: group members (whose
 * finish queues none) and PDFs rendered before thumbnails were made. The web process never draws
 * one; the page shows the PDF mark until a later view finds it. One statement, and a job key
 * per render, so a page shown again while its tasks wait adds nothing. Returns how many were asked for.
 */
export async function requestRenderThumbnails(ctx: ServiceContext, { accountId, jobs }: RequestRenderThumbnailsOptions): Promise<number> {
  const now = ctx.clock();
  const missing = jobs.filter(
    (job) =>
      job.accountId === accountId &&
      job.kind === 'pdf' &&
      job.status === 'succeeded' &&
      job.removedReason === null &&
      job.thumbnailKey === null &&
      job.expiresAt !== null &&
      job.expiresAt > now &&
      !passwordErased(job.options),
  );
  if (missing.length === 0) return 0;
  const ids = missing.map((job) => job.id);
  const task = addJobOf('render_thumbnail', Prisma.sql`json_build_object('job_id', id)`, { jobKey: Prisma.sql`'render-thumbnail:' || id` });
  await ctx.db.$executeRaw`SELECT ${task} FROM unnest(${ids}::text[]) AS id`;
  return ids.length;
}
