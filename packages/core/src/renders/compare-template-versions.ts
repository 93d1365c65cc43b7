import { checkAssetReferences } from '../assets/asset-references.ts';
import { type Principal } from '../auth/principal.ts';
import { refuseUnlessCreditsCover } from './refuse-uncovered-work.ts';
import { selectBrandValues } from '../templates/brand-values.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { takeUnbilledRenders } from './admit-unbilled-render.ts';
import { finishRender } from './finish-render.ts';
import { createPreviewJob } from './preview-job.ts';
import { removeRenderFiles } from './render-files.ts';
import { isTerminal } from './render-job-store.ts';
import { evaluateTemplateData } from '../templates/evaluate-source.ts';
import { getTemplateVersion } from '../templates/get-template-version.ts';
import { takePreviewToken } from '../templates/preview-template.ts';
import { readAll } from '../storage/read-all.ts';

export interface CompareTemplateVersionsOptions {
  principal: Principal;
  templateId: string;
  versions: [number, number];
  data: Record<string, unknown>;
  /** the image size both versions are rendered at (a canvas template's canvas, else a page-like viewport) */
  width: number;
  height: number;
}

export interface VersionComparison {
  /** the two renders as PNG, in the order asked */
  images: [Buffer, Buffer];
  /** the second render faded, with every pixel that differs from the first in red */
  difference: Buffer;
  /** share of pixels that differ, 0 to 1 */
  changedShare: number;
}

/** A channel difference below this is anti-aliasing noise, not a change a person would see. */
const channelTolerance = 24;

/** Images a comparison renders, and so the credits its account must hold (though none is taken). */
const comparedImages = 2;

/**
 * Renders two versions of a template as images with the same data and marks the pixels that
 * changed. The renders are real jobs through the queue and the worker's browser, like an AI
 * candidate's preview, never billed (credit none). Before any work: the preview rate limit (one
 * token per comparison), then a balance that could pay for the two images (402
 * insufficient_credits; nothing is taken), then the unbilled render rule
 * (admit-unbilled-render.ts). The jobs are rendered as bulk work, never listed in history, and
 * their files are removed as soon as the comparison has read them: the images reach the
 * dashboard in the answer and nowhere else.
 */
export async function compareTemplateVersions(ctx: ServiceContext, options: CompareTemplateVersionsOptions): Promise<VersionComparison> {
  const { principal, templateId, versions, data, width, height } = options;
  await takePreviewToken(ctx, principal);
  await refuseUnlessCreditsCover(ctx.db, { principal, credits: comparedImages, now: ctx.clock() });
  // both images are unbilled renders, taken together before any work
  await takeUnbilledRenders(ctx, { accountId: principal.accountId, renders: comparedImages });
  const images: Buffer[] = [];
  for (const version of versions) {
    const record = await getTemplateVersion(ctx, { accountId: principal.accountId, templateId, version: String(version) });
    const brand = await selectBrandValues(ctx.db, { accountId: principal.accountId, requested: undefined, source: record.source, sourceField: 'template_id' });
    const metering = { ctx, accountId: principal.accountId };
    const html = await evaluateTemplateData(ctx.metrics, { source: record.source, data, sourceField: 'template_id', brand, schema: record.schema, metering });
    await checkAssetReferences(ctx.db, principal.accountId, html, 'template_id');
    images.push(await renderSnapshot(ctx, principal.accountId, html, width, height));
  }
  const [first, second] = images as [Buffer, Buffer];
  return { images: [first, second], ...(await differencePicture(first, second, width, height)) };
}

async function renderSnapshot(ctx: ServiceContext, accountId: string, html: string, width: number, height: number): Promise<Buffer> {
  const jobId = await createPreviewJob(ctx, {
    accountId,
    keyId: null,
    html,
    output: { type: 'image', format: 'png', width, height },
    queue: true,
    filename: 'version-comparison',
    listed: false,
  });
  try {
    const finished = async () => isTerminal(await ctx.db.renderJob.findUnique({ where: { id: jobId }, select: { status: true } }));
    // the finish's notice carries the job; a poll that saw it finish reads it once more
    const job = (await ctx.completions.wait(jobId, ctx.config.renderWaitMs, finished)) ?? (await ctx.db.renderJob.findUniqueOrThrow({ where: { id: jobId } }));
    if (job.status !== 'succeeded' || !job.storageKey) throw new DomainError(job.status === 'failed' ? 'internal_error' : 'overloaded');
    const stored = await ctx.storage.open(job.storageKey);
    if (!stored) throw new DomainError('overloaded');
    return await readAll(stored.stream);
  } finally {
    await discardSnapshot(ctx, jobId);
  }
}

/**
 * Whatever the comparison's outcome: a job still waiting or rendering is cancelled (a worker
 * that finishes it later removes its own file), and a stored file is removed, so nothing of
 * the comparison stays downloadable.
 */
async function discardSnapshot(ctx: ServiceContext, jobId: string): Promise<void> {
  await finishRender(ctx.db, { jobId, attempt: null, outcome: { status: 'cancelled' }, now: ctx.clock(), metrics: ctx.metrics });
  const job = await ctx.db.renderJob.findUniqueOrThrow({ where: { id: jobId }, select: { kind: true, storageKey: true, removedReason: true } });
  if (job.storageKey === null || job.removedReason !== null) return;
  await removeRenderFiles(ctx, job);
  await ctx.db.renderJob.updateMany({ where: { id: jobId, removedReason: null }, data: { removedReason: 'deleted' } });
}

/** The second image faded to a quarter, with changed pixels in solid red. */
export async function differencePicture(first: Buffer, second: Buffer, width: number, height: number): Promise<{ difference: Buffer; changedShare: number }> {
  const { default: sharp } = await import('sharp');
  const raw = (image: Buffer) => sharp(image).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const [a, b] = await Promise.all([raw(first), raw(second)]);
  const out = Buffer.alloc(a.length);
  let changed = 0;
  for (let index = 0; index < a.length; index += 3) {
    const differs =
      Math.abs(a[index]! - b[index]!) > channelTolerance ||
      Math.abs(a[index + 1]! - b[index + 1]!) > channelTolerance ||
      Math.abs(a[index + 2]! - b[index + 2]!) > channelTolerance;
    if (differs) {
      changed += 1;
      out[index] = 220;
      out[index + 1] = 38;
      out[index + 2] = 38;
    } else {
      for (let channel = 0; channel < 3; channel += 1) out[index + channel] = 191 + Math.round(b[index + channel]! / 4);
    }
  }
  const difference = await sharp(out, { raw: { width, height, channels: 3 } }).png().toBuffer();
  return { difference, changedShare: changed / (width * height) };
}
