import { createHash } from 'node:crypto';
import { isRenderError, type RenderOutput } from '@svc/contracts';
import { capturedAssetResolver } from '../assets/captured-asset-resolver.ts';
import type { ServiceContext } from '../shared/context.ts';
import { extensionOf } from './filename.ts';
import { type FinishRenderOptions, finishRender } from './finish-render.ts';
import { type ClaimedJob, claimRender, provenanceOf } from './render-queue.ts';

export interface RunRenderJobOptions {
  jobId: string;
}

/**
 * Claims one job by id with a lease (another worker, or a second call, finds nothing to do)
 * and renders it: the way a caller that runs a job itself, such as an AI candidate's preview,
 * takes it. The worker's render slots claim from the queue instead (claimNextRender).
 */
export async function runRenderJob(ctx: ServiceContext, { jobId }: RunRenderJobOptions): Promise<void> {
  const job = await claimRender(ctx, jobId);
  if (job) await renderClaimedJob(ctx, job);
}

/**
 * Worker side of a claimed render job: renders it, stores the file and finishes the job. A
 * failure of the render fails the job and releases its credit; a crash of this process leaves
 * the lease to expire, and recovery queues the job again.
 */
export async function renderClaimedJob(ctx: ServiceContext, job: ClaimedJob): Promise<void> {
  const jobId = job.id;
  const finish = (outcome: FinishRenderOptions['outcome'], report?: FinishRenderOptions['report']) =>
    finishRender(ctx.db, { jobId, attempt: job.attempts, outcome, now: ctx.clock(), report, metrics: ctx.metrics });

  if (job.attempts > ctx.config.maxRenderAttempts) {
    ctx.logger.error('render job failed', { jobId, category: 'internal_failure', code: 'attempts_exhausted', attempts: job.attempts });
    await finish({ status: 'failed', category: 'internal_failure', code: 'attempts_exhausted' });
    return;
  }
  if (job.html === null) {
    ctx.logger.error('render job failed', { jobId, category: 'internal_failure', code: 'input_missing', attempts: job.attempts });
    await finish({ status: 'failed', category: 'internal_failure', code: 'input_missing' });
    return;
  }

  let output: RenderOutput;
  try {
    output = await render(ctx, { ...job, html: job.html });
  } catch (error) {
    if (!isRenderError(error)) throw error;
    // the message is the renderer's own fixed text about the failure (a sandbox trip names its
    // category, never the URL), so it is logged; the customer sees only category and code
    ctx.logger.warn('render job failed', { jobId, category: error.category, code: error.code, error: error.message });
    await finish({ status: 'failed', category: error.category, code: error.code }, { findings: error.findings ?? null, storageMs: null });
    return;
  }

  const storageKey = `${job.accountId}/${job.id}-${job.attempts}.${extensionOf[output.mediaType] ?? 'bin'}`;
  const storing = performance.now();
  await ctx.storage.put(storageKey, output.bytes, { contentType: output.mediaType });
  const storageMs = Math.round(performance.now() - storing);
  const now = ctx.clock();
  const finished = await finish({
    status: 'succeeded',
    artifact: {
      mediaType: output.mediaType,
      byteSize: output.bytes.byteLength,
      pageCount: output.pageCount ?? null,
      sha256: createHash('sha256').update(output.bytes).digest('hex'),
      storageKey,
      expiresAt: new Date(now.getTime() + ctx.config.retentionMs),
    },
  }, { findings: output.findings, storageMs });
  // another claimer finished the job meanwhile: this copy of the file belongs to nobody
  if (!finished) await ctx.storage.remove(storageKey);
}

/** The job's stored options go to the engine as they are, with where the file comes from. */
function render(ctx: ServiceContext, job: ClaimedJob & { html: string }): Promise<RenderOutput> {
  const { options } = job;
  const work = {
    account: job.accountId,
    html: job.html,
    assets: capturedAssetResolver(ctx, job.id),
    timeoutMs: ctx.config.renderTimeoutMs,
    bulk: job.bulk,
    provenance: provenanceOf(job),
    logger: ctx.logger,
  };
  return options.kind === 'pdf' ? ctx.renderEngine.renderPdf({ ...options, ...work }) : ctx.renderEngine.renderImage({ ...options, ...work });
}
