import { Prisma } from '@svc/db';
import { addJobOf } from '../tasks/enqueue.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { passwordErased } from './finish-render.ts';

export interface RequestRenderThumbnailsOptions {
  accountId: string;
  /** The jobs a page is about to show. */
  jobs: RenderJobRecord[];
}

/**
 * Asks the worker for the first page of the shown PDFs that have none yet. A render's finish
 * queues none (most of an API account's renders are never shown here), so the first view of
 * the history asks; the web process never draws one, and the row shows the PDF mark until the
 * page is there. One statement, and a job key per render, so a page shown again while its
 * tasks wait adds nothing. Returns the ids of the renders asked for.
 */
export async function requestRenderThumbnails(ctx: ServiceContext, { accountId, jobs }: RequestRenderThumbnailsOptions): Promise<string[]> {
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
  if (missing.length === 0) return [];
  const ids = missing.map((job) => job.id);
  const task = addJobOf('render_thumbnail', Prisma.sql`json_build_object('job_id', id)`, { jobKey: Prisma.sql`'render-thumbnail:' || id` });
  await ctx.db.$executeRaw`SELECT ${task} FROM unnest(${ids}::text[]) AS id`;
  return ids;
}
