// A candidate's preview (the contract's AI build candidate phase): a normal render job, never billed (credit none), rendered
// through the same claim, engine and finish as any job. The pipeline runs it here, in its own
// task, so it reads the result as soon as it ends; if the worker dies meanwhile, render recovery
// takes the job up like any other.
import type { TemplateOutput } from '@svc/contracts';
import { findAssetReferences } from '../assets/asset-references.ts';
import { admitUnbilledJob } from './admit-unbilled-render.ts';
import { isTerminal, recordRenderJob } from './render-job-store.ts';
import { effectiveOptions } from './render-spec.ts';
import { runRenderJob } from './run-render-job.ts';
import type { ServiceContext } from '../shared/context.ts';
import { newRenderJobId } from '../shared/ids.ts';
import { readAll } from '../storage/read-all.ts';
import { delay } from '@svc/deadline';

export interface CandidateRender {
  jobId: string;
  status: 'succeeded' | 'failed' | 'cancelled';
  errorCategory: string | null;
  errorCode: string | null;
  /** The rendered file, for the review. */
  bytes: Buffer | null;
  mediaType: string | null;
  pageCount: number | null;
}

export interface RenderCandidateOptions {
  accountId: string;
  keyId: string | null;
  html: string;
  output: TemplateOutput;
  /**
   * hand the job to the worker's queue in the same transaction (a process without a browser),
   * admitted by the unbilled rule; omitted, the caller runs it
   */
  queue?: boolean;
  /** default template-preview */
  filename?: string;
  /**
   * false: the job never appears in history (a version comparison's image, whose bytes go to
   * the dashboard and nowhere else); default true (an AI candidate is the customer's to download)
   */
  listed?: boolean;
}

/** Records the preview job (credit none) with its captured assets; queued as bulk work when `queue` says so. */
export async function createPreviewJob(ctx: ServiceContext, options: RenderCandidateOptions): Promise<string> {
  const { output } = options;
  const kind = output.type;
  const request = output.type === 'pdf' ? { html: options.html } : { html: options.html, image: { format: output.format, width: output.width, height: output.height } };
  const now = ctx.clock();
  const job = {
    id: newRenderJobId(kind),
    accountId: options.accountId,
    keyId: options.keyId,
    kind,
    unbilled: true,
    filename: options.filename ?? 'template-preview',
    template: null,
    // assets checked against the account at candidate time; captured now like any render's
    input: { html: options.html, options: effectiveOptions(kind, request as never), assetIds: findAssetReferences(options.html, 'source'), dataSha256: null },
    hiddenAt: options.listed === false ? now : null,
    queued: options.queue === true,
    now,
  };
  await ctx.db.$transaction(async (tx) => {
    if (options.queue) await admitUnbilledJob(ctx, tx, { accountId: options.accountId, keyId: options.keyId });
    await recordRenderJob(tx, job);
  });
  return job.id;
}

/** Renders a preview job in this task and reads its result (a job another worker holds is waited for). */
export async function runPreviewJob(ctx: ServiceContext, jobId: string): Promise<CandidateRender> {
  await runRenderJob(ctx, { jobId });
  let job = await ctx.db.renderJob.findUniqueOrThrow({ where: { id: jobId } });
  // another claimer has it (recovery after a lost worker): wait for its end
  for (let waited = 0; !isTerminal(job) && waited < ctx.config.renderLeaseMs * 2; waited += 1000) {
    await delay(1000);
    if (job.status === 'queued') await runRenderJob(ctx, { jobId });
    job = await ctx.db.renderJob.findUniqueOrThrow({ where: { id: jobId } });
  }
  if (!isTerminal(job)) throw new Error('preview job did not end');
  let bytes: Buffer | null = null;
  if (job.status === 'succeeded' && job.storageKey) {
    const stored = await ctx.storage.open(job.storageKey);
    if (stored) bytes = await readAll(stored.stream);
  }
  return {
    jobId,
    status: job.status,
    errorCategory: job.errorCategory,
    errorCode: job.errorCode,
    bytes,
    mediaType: job.mediaType,
    pageCount: bytes && job.mediaType === 'application/pdf' ? countPdfPages(bytes) : null,
  };
}

/** Pages of a PDF the renderer wrote (its page tree's /Count); null when it cannot be read. */
function countPdfPages(bytes: Buffer): number | null {
  const counts = [...bytes.toString('latin1').matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/g)].map((match) => Number(match[1]));
  return counts.length > 0 ? Math.max(...counts) : null;
}
