// A succeeded PDF's first page, drawn by the worker with poppler and stored beside the file:
// the finish queues it (the history asks for the ones it shows without one), the task makes it
// (a real Chromium render, a real rasteriser), the dashboard's thumbnail read serves it to the
// owner only, and it goes with the file when the file is deleted or expires. An encrypted PDF,
// or one whose file went first, gets none.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRender, deleteRender, expireRenderFiles, getRenderThumbnail, makeRenderThumbnail, requestRenderThumbnails, type ServiceContext } from '@svc/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../../packages/core/src/storage/local-storage.ts';
import { runRenderJob } from '../../../packages/core/src/renders/run-render-job.ts';
import { accountWith, useTestContext } from '../../../packages/core/test/support.ts';
import { pdfFirstPageThumbnail } from '@svc/renderer';
import { chromiumEngine, type WorkerRenderEngine } from '../src/render-engine.ts';

const test = useTestContext();
const { ctx } = test;
let engine: WorkerRenderEngine;
let worker: ServiceContext;

beforeAll(async () => {
  ctx.config = { ...ctx.config, filesDir: await mkdtemp(join(tmpdir(), 'svc-thumbnails-')) };
  ctx.storage = new LocalStorage(ctx.config.filesDir);
  engine = chromiumEngine({ config: ctx.config, logger: ctx.logger });
  worker = { ...ctx, renderEngine: engine };
}, 60_000);

afterAll(async () => {
  await engine.close();
});

// page one: a black band across the top of a white page; page two: text only
const twoPages = '<div style="height:300px;background:#000"></div><p style="break-before:page">Second page</p>';

async function renderedPdf(pdf: Record<string, unknown> = {}) {
  const principal = await accountWith(ctx, { plan: 'growth', credits: 10 });
  const { job } = await createRender(ctx, { principal, kind: 'pdf', request: { html: twoPages, wait: false, pdf: { print_background: true, ...pdf } }, idempotencyKey: null });
  await runRenderJob(worker, { jobId: job.id });
  const rendered = await ctx.db.renderJob.findUniqueOrThrow({ where: { id: job.id } });
  expect(rendered.status).toBe('succeeded');
  return { job: rendered, accountId: principal.accountId };
}

const queuedThumbnails = async (jobId: string) =>
  (await ctx.db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'render_thumbnail' AND key = ${`render-thumbnail:${jobId}`}`)[0]!.n;
const stored = (key: string) => ctx.storage.exists(key);

describe('PDF thumbnails', () => {
  it('are drawn from the first page, stored beside the file and removed with it', async () => {
    const { job, accountId } = await renderedPdf();
    expect(job.thumbnailKey).toBeNull();

    expect(await makeRenderThumbnail(worker, { jobId: job.id })).toBe(true);
    const made = await ctx.db.renderJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(made.thumbnailKey).toBe(job.storageKey!.replace(/\.pdf$/, '.thumbnail.webp'));
    expect(await stored(made.thumbnailKey!)).toBe(true);
    // a second delivery of the task changes nothing
    expect(await makeRenderThumbnail(worker, { jobId: job.id })).toBe(false);

    // the owner reads it: an A4 page drawn 160 px high, the black band on top, white below
    const thumbnail = await getRenderThumbnail(ctx, { accountId, jobId: job.id });
    const image = sharp(thumbnail.bytes);
    const { format, width, height } = await image.metadata();
    expect({ format, height }).toEqual({ format: 'webp', height: 160 });
    expect(width).toBeGreaterThan(100);
    expect(width).toBeLessThan(120);
    const { data, info } = await image.greyscale().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => data[y * info.width + x]!;
    expect(pixel(Math.floor(info.width / 2), 20)).toBeLessThan(60);
    expect(pixel(Math.floor(info.width / 2), 140)).toBeGreaterThan(200);
    // another account does not
    const other = await accountWith(ctx, { plan: 'free', credits: 1 });
    await expect(getRenderThumbnail(ctx, { accountId: other.accountId, jobId: job.id })).rejects.toMatchObject({ code: 'not_found' });

    await deleteRender(ctx, { accountId, kind: 'pdf', jobId: job.id });
    expect(await stored(job.storageKey!)).toBe(false);
    expect(await stored(made.thumbnailKey!)).toBe(false);
    await expect(getRenderThumbnail(ctx, { accountId, jobId: job.id })).rejects.toMatchObject({ code: 'not_found' });
  }, 120_000);

  it('expire with the file', async () => {
    const { job } = await renderedPdf();
    expect(await makeRenderThumbnail(worker, { jobId: job.id })).toBe(true);
    const { thumbnailKey } = await ctx.db.renderJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(await stored(thumbnailKey!)).toBe(true);

    test.setNow(new Date(job.expiresAt!.getTime() + 1000));
    try {
      expect(await expireRenderFiles(ctx)).toBeGreaterThanOrEqual(1);
    } finally {
      test.setNow(new Date('2026-03-15T12:00:00Z'));
    }
    expect(await stored(job.storageKey!)).toBe(false);
    expect(await stored(thumbnailKey!)).toBe(false);
    // a late delivery of the task finds the file gone and makes none
    await ctx.db.renderJob.update({ where: { id: job.id }, data: { thumbnailKey: null } });
    expect(await makeRenderThumbnail(worker, { jobId: job.id })).toBe(false);
  }, 120_000);

  it('are not made for a PDF with an open password, nor for a file deleted before the task ran', async () => {
    const locked = await renderedPdf({ password: 'secret' });
    expect(await queuedThumbnails(locked.job.id)).toBe(0n);
    expect(await makeRenderThumbnail(worker, { jobId: locked.job.id })).toBe(false);
    expect(await stored(locked.job.storageKey!.replace(/\.pdf$/, '.thumbnail.webp'))).toBe(false);

    const gone = await renderedPdf();
    await deleteRender(ctx, { accountId: gone.accountId, kind: 'pdf', jobId: gone.job.id });
    expect(await makeRenderThumbnail(worker, { jobId: gone.job.id })).toBe(false);
    expect(await stored(gone.job.storageKey!.replace(/\.pdf$/, '.thumbnail.webp'))).toBe(false);
  }, 120_000);

  it('are asked for when the history first shows a PDF, not by its finish, and once while the task waits', async () => {
    const { job, accountId } = await renderedPdf();
    const locked = await renderedPdf({ password: 'secret' });
    const other = await accountWith(ctx, { plan: 'free', credits: 1 });
    expect(await queuedThumbnails(job.id)).toBe(0n);

    expect(await requestRenderThumbnails(ctx, { accountId: other.accountId, jobs: [job] })).toEqual([]);
    expect(await requestRenderThumbnails(ctx, { accountId, jobs: [job, locked.job] })).toEqual([job.id]);
    expect(await requestRenderThumbnails(ctx, { accountId, jobs: [job] })).toEqual([job.id]);
    expect(await queuedThumbnails(job.id)).toBe(1n);
    expect(await queuedThumbnails(locked.job.id)).toBe(0n);

    expect(await makeRenderThumbnail(worker, { jobId: job.id })).toBe(true);
    const drawn = await ctx.db.renderJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(await requestRenderThumbnails(ctx, { accountId, jobs: [drawn] })).toEqual([]);
  }, 120_000);

  it('refuse what poppler cannot draw, within the time limit', async () => {
    await expect(pdfFirstPageThumbnail(Buffer.from('%PDF-1.7\nnot a document\n'))).rejects.toThrow(/pdftoppm/);
  });
});
