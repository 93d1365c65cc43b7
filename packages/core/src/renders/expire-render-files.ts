import type { ServiceContext } from '../shared/context.ts';
import { removeRenderFiles } from './render-files.ts';

/**
 * Retention: removes files past their expiry (a thumbnail with its file), then marks them expired (the file goes
 * before the marker, so a crash in between only repeats the removal). The inputs failed jobs
 * keep for a retry go once the same retention has passed since they failed.
 */
export async function expireRenderFiles(ctx: ServiceContext): Promise<number> {
  const failedBefore = new Date(ctx.clock().getTime() - ctx.config.retentionMs);
  await ctx.db.$executeRaw`
    DELETE FROM render_inputs i USING render_jobs j
     WHERE j.id = i.job_id AND j.status = 'failed' AND j.finished_at <= ${failedBefore}`;
  let expired = 0;
  for (;;) {
    const due = await ctx.db.renderJob.findMany({
      where: { status: 'succeeded', removedReason: null, expiresAt: { lte: ctx.clock() } },
      select: { id: true, kind: true, storageKey: true },
      take: 200,
    });
    if (due.length === 0) return expired;
    for (const job of due) {
      await removeRenderFiles(ctx, job);
      const marked = await ctx.db.renderJob.updateMany({ where: { id: job.id, removedReason: null }, data: { removedReason: 'expired' } });
      expired += marked.count;
    }
  }
}
