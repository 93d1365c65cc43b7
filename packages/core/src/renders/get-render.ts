import { idPattern, type RenderJob as RenderJobView } from '@svc/contracts';
import type { RenderJob } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { RenderKind } from './render-spec.ts';
import { toJobView } from './render-job-view.ts';

export interface GetRenderOptions {
  accountId: string;
  kind: RenderKind;
  jobId: string;
}

/** Finds an owned job; malformed, foreign and missing ids are the same 404. */
export async function findOwnedRender(ctx: ServiceContext, { accountId, kind, jobId }: GetRenderOptions): Promise<RenderJob> {
  if (!idPattern(kind === 'pdf' ? 'pdf_' : 'image_').test(jobId)) throw notFound();
  const job = await ctx.db.renderJob.findFirst({ where: { id: jobId, accountId, kind } });
  if (!job) throw notFound();
  return job;
}

export async function getRender(ctx: ServiceContext, options: GetRenderOptions): Promise<RenderJobView> {
  return toJobView(ctx, await findOwnedRender(ctx, options));
}
