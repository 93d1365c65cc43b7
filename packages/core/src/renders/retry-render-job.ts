import { DomainError, notFound } from '../shared/errors.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { admitRenderJob, lockAccountAdmissions, refuseWhenOverloaded } from './admit-render-job.ts';
import { passwordErased } from './finish-render.ts';
import { isTerminal } from './render-job-store.ts';

export interface RetryRenderJobOptions {
  jobId: string;
}

/**
 * An operator's retry of a failed render: a new job from the failed job's evaluated input,
 * options, filename, reference and captured assets, admitted like a REST creation (the
 * account must be active; backlog and concurrency limits; one credit reserved by the same
 * spending order, counted against the original key while it is active, else as the account's
 * keyless work; settled or released as any job). The customer's request rate is not spent.
 * A failed job is retried once: asking again answers the same new job, charging nothing more.
 * Failed jobs keep their input for the retention window (SVC_RETENTION_HOURS); after that, or
 * for a job that did not fail, the answer is 409; so it is for a PDF whose open password was
 * erased when it failed (the service keeps no password past the job's end).
 */
export async function retryRenderJob(ctx: ServiceContext, { jobId }: RetryRenderJobOptions): Promise<RenderJobRecord> {
  const original = await ctx.db.renderJob.findUnique({ where: { id: jobId } });
  if (!original) throw notFound();
  const existing = await ctx.db.renderJob.findUnique({ where: { retryOf: original.id } });
  if (existing) return existing;
  if (!isTerminal(original)) throw new DomainError('job_not_finished');
  if (original.status !== 'failed') throw new DomainError('operation_conflict');
  // its open password was erased when it failed: a retry would make the file unencrypted
  if (passwordErased(original.options)) throw new DomainError('operation_conflict');
  await refuseWhenOverloaded(ctx);
  const now = ctx.clock();
  const retryId = await ctx.db.$transaction(async (tx) => {
    await lockAccountAdmissions(tx, original.accountId);
    // under the account lock a concurrent retry of the same job has either committed or not begun
    const raced = await tx.renderJob.findUnique({ where: { retryOf: original.id }, select: { id: true } });
    if (raced) return raced.id;
    const [account, input, assets, key] = await Promise.all([
      tx.account.findUniqueOrThrow({ where: { id: original.accountId } }),
      tx.renderInput.findUnique({ where: { jobId: original.id } }),
      tx.renderJobAsset.findMany({ where: { jobId: original.id }, select: { assetId: true } }),
      original.keyId ? tx.apiKey.findFirst({ where: { id: original.keyId, status: 'active' } }) : null,
    ]);
    if (account.status !== 'active') throw new DomainError('account_suspended');
    if (!input) throw new DomainError('operation_conflict');
    return admitRenderJob(tx, {
      accountId: account.id,
      plan: account.plan,
      keyId: key?.id ?? null,
      overageCap: key?.monthlyOverageCap ?? null,
      kind: original.kind,
      reference: original.reference,
      filename: original.filename,
      template: original.templateId && original.templateVersion ? { id: original.templateId, version: original.templateVersion } : null,
      input: { html: input.html, options: original.options, assetIds: assets.map((asset) => asset.assetId), dataSha256: original.dataSha256 },
      retryOf: original.id,
      now,
    }, ctx.metrics);
  });
  return ctx.db.renderJob.findUniqueOrThrow({ where: { id: retryId } });
}
