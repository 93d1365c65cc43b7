import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { findOwnedRender, type GetRenderOptions } from './get-render.ts';
import { removeRenderFiles } from './render-files.ts';

/**
 * DELETE in the contract's render job lifecycle: a succeeded job loses its file and its thumbnail (removed before the database marker,
 * so a removal failure answers 500 and leaves the record live for a retry) and reads
 * removed_reason deleted; a failed or cancelled job leaves history; queued or running
 * jobs answer 409. Repeating is safe, and an expired file stays expired. Billing, rate
 * limits and idempotency keys are unchanged.
 */
export async function deleteRender(ctx: ServiceContext, options: GetRenderOptions): Promise<RenderJobRecord> {
  const job = await findOwnedRender(ctx, options);
  if (job.status === 'queued' || job.status === 'running') throw new DomainError('job_not_finished');
  if (job.status === 'succeeded') {
    if (job.removedReason === null) {
      await removeRenderFiles(ctx, job);
      await ctx.db.renderJob.updateMany({ where: { id: job.id, removedReason: null }, data: { removedReason: 'deleted' } });
    }
  } else if (job.hiddenAt === null) {
    // the input a failed job keeps for a retry goes with it
    await ctx.db.$transaction([
      ctx.db.renderJob.update({ where: { id: job.id }, data: { hiddenAt: ctx.clock() } }),
      ctx.db.renderInput.deleteMany({ where: { jobId: job.id } }),
    ]);
  }
  return findOwnedRender(ctx, options);
}
