import { idPattern, renderIdPrefixes } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import type { RenderKind } from './render-spec.ts';

export interface GetRenderOptions {
  accountId: string;
  kind: RenderKind;
  jobId: string;
}

/** Finds an owned job; malformed, foreign and missing ids are the same 404. */
export async function findOwnedRender(ctx: ServiceContext, { accountId, kind, jobId }: GetRenderOptions): Promise<RenderJobRecord> {
  if (!idPattern(renderIdPrefixes[kind]).test(jobId)) throw notFound();
  const job = await ctx.db.renderJob.findFirst({ where: { id: jobId, accountId, kind } });
  if (!job) throw notFound();
  return job;
}

export async function getRender(ctx: ServiceContext, options: GetRenderOptions): Promise<RenderJobRecord> {
  return findOwnedRender(ctx, options);
}
