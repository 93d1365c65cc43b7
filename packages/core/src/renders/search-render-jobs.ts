import { renderIdPattern } from '@svc/contracts';
import type { JobStatus, Prisma } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { type Page, pageOf, type RenderJobRecord } from '../shared/records.ts';
import type { RenderKind } from './render-spec.ts';

export interface SearchRenderJobsOptions {
  accountId?: string;
  status?: JobStatus;
  errorCategory?: string;
  kind?: RenderKind;
  /** Created at or after. */
  createdFrom?: Date;
  /** Created before. */
  createdBefore?: Date;
  limit: number;
  cursor?: string;
}

/** Render jobs of every account, newest first, keyset-paged, for operators (jobs removed from history included). */
export async function searchRenderJobs(ctx: ServiceContext, options: SearchRenderJobsOptions): Promise<Page<RenderJobRecord>> {
  const { accountId, status, errorCategory, kind, createdFrom, createdBefore, limit, cursor } = options;
  const after = cursor ? decodeCursor(cursor, renderIdPattern) : undefined;
  const where: Prisma.RenderJobWhereInput = {
    ...(accountId ? { accountId } : {}),
    ...(status ? { status } : {}),
    ...(errorCategory ? { errorCategory } : {}),
    ...(kind ? { kind } : {}),
    ...(createdFrom || createdBefore ? { createdAt: { ...(createdFrom ? { gte: createdFrom } : {}), ...(createdBefore ? { lt: createdBefore } : {}) } } : {}),
    ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
  };
  const rows = await ctx.db.renderJob.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
  return pageOf(rows, limit, encodeCursor);
}
