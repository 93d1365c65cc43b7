import { createHash } from 'node:crypto';
import { capturedAssetResolver } from '../assets/captured-asset-resolver.ts';
import { isRenderFailure, type RenderOutput } from '../ports/render-engine.ts';
import type { ServiceContext } from '../shared/context.ts';
import { extensionOf } from './filename.ts';
import { finishRender } from './finish-render.ts';
import type { RenderOptions } from './render-spec.ts';

export interface RunRenderJobOptions {
  jobId: string;
}

/**
 * Worker side of a render job. Claims the job with a lease (a second delivery of the
 * same task, or another worker, finds nothing to do), renders it, stores the file and
 * finishes the job. A failure of the render fails the job and releases its credit; a
 * crash of this process leaves the lease to expire, and recovery takes the job up again.
 */
export async function runRenderJob(ctx: ServiceContext, { jobId }: RunRenderJobOptions): Promise<void> {
  const job = await claim(ctx, jobId);
  if (!job) return;
  const finish = (outcome: Parameters<typeof finishRender>[1]['outcome']) =>
    finishRender(ctx.db, { jobId, attempt: job.attempts, outcome, now: ctx.clock() });

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
    if (!isRenderFailure(error)) throw error;
    // the message is the renderer's own fixed text about the failure (a sandbox trip names its
    // category, never the URL), so it is logged; the customer sees only category and code
    ctx.logger.warn('render job failed', { jobId, category: error.category, code: error.code, error: error.message });
    await finish({ status: 'failed', category: error.category, code: error.code });
    return;
  }

  const storageKey = `${job.accountId}/${job.id}-${job.attempts}.${extensionOf[output.mediaType] ?? 'bin'}`;
  await ctx.storage.put(storageKey, output.bytes, { contentType: output.mediaType });
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
  });
  // another claimer finished the job meanwhile: this copy of the file belongs to nobody
  if (!finished) await ctx.storage.remove(storageKey);
}

interface ClaimedJob {
  id: string;
  accountId: string;
  /** a group member: bulk work */
  bulk: boolean;
  /** this claim's number, which fences the finish */
  attempts: number;
  options: RenderOptions;
  /** null if the job has no input (never expected: the input goes only when the job ends) */
  html: string | null;
}

/** Takes the job and reads what it renders in one statement. */
async function claim(ctx: ServiceContext, jobId: string): Promise<ClaimedJob | null> {
  const now = ctx.clock();
  const leaseUntil = new Date(now.getTime() + ctx.config.renderLeaseMs);
  const rows = await ctx.db.$queryRaw<{ id: string; account_id: string; attempts: number; options: RenderOptions; html: string | null; bulk: boolean }[]>`
    UPDATE render_jobs j SET status = 'running', attempts = attempts + 1, lease_expires_at = ${leaseUntil},
           started_at = COALESCE(started_at, ${now})
     WHERE id = ${jobId} AND (status = 'queued' OR (status = 'running' AND lease_expires_at < ${now}))
    RETURNING j.id, j.account_id, j.attempts, j.options, (SELECT i.html FROM render_inputs i WHERE i.job_id = j.id) AS html, j.group_id IS NOT NULL AS bulk`;
  const row = rows[0];
  if (!row) return null;
  return { id: row.id, accountId: row.account_id, bulk: row.bulk, attempts: row.attempts, options: row.options, html: row.html };
}

function render(ctx: ServiceContext, job: ClaimedJob & { html: string }): Promise<RenderOutput> {
  const { accountId: account, html, options, bulk } = job;
  const engine = ctx.renderEngine;
  const timeoutMs = ctx.config.renderTimeoutMs;
  const assets = capturedAssetResolver(ctx, job.id);
  if (options.kind === 'pdf') {
    return engine.renderPdf({ account, html, pdf: options.pdf, viewport: options.viewport, javascript: options.javascript, pages: options.pages, assets, timeoutMs, bulk });
  }
  return engine.renderImage({ account, html, image: options.image, javascript: options.javascript, pages: options.pages, assets, timeoutMs, bulk });
}
