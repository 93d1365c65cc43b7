// Adapt in the worker's browser (docs/decisions/adapt.md): flow, flex, grid and
// positioned canvases adapted to other aspect ratios, then rendered and measured in a browser:
// the rendered pixel size, no text outside its page, every page keeping its text.
import { loadConfig, type ServiceContext, silentLogger } from '@svc/core';
import { adaptSource } from '../../../packages/core/src/templates/adapt-template.ts';
import { createMetrics } from '../../../packages/core/src/metrics/metrics.ts';
import { systemClock } from '../../../packages/core/src/wiring/service-context.ts';
import puppeteer, { type Browser } from 'puppeteer-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adaptCanvases, adaptSizes as sizes, type MeasuredPage, measurePages } from '../../../e2e/support/canvases.ts';
import { chromiumEngine, type WorkerRenderEngine } from '../src/render-engine.ts';

let engine: WorkerRenderEngine;
let browser: Browser;
let ctx: ServiceContext;

beforeAll(async () => {
  const config = loadConfig({});
  engine = chromiumEngine({ config: { ...config, warmSandboxes: { ...config.warmSandboxes, size: 2 } }, logger: silentLogger });
  await engine.start();
  browser = await puppeteer.launch({ executablePath: process.env.SVC_CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell', args: ['--no-sandbox'] });
  // adapt without an account reads no database: the layout runs in a sandbox of its own
  ctx = { config, clock: systemClock, logger: silentLogger, renderEngine: engine, metrics: createMetrics() } as unknown as ServiceContext;
});

afterAll(async () => {
  await browser?.close();
  await engine?.close();
});

/** In a browser at the canvas size: each page's size, its text, and any text outside it (or a clipping ancestor). */
async function measure(source: string, width: number, height: number) {
  const page = await browser.newPage();
  try {
    await page.setJavaScriptEnabled(false);
    await page.setViewport({ width, height });
    await page.setContent(source, { waitUntil: 'load' });
    return (await page.evaluate(measurePages)) as MeasuredPage[];
  } finally {
    await page.close();
  }
}

/** Harder cases: sizes a stylesheet makes important, boxes placed by classes and centred by a translation. */
const moreCanvases: Record<string, string> = {
  important: `<meta name="svc-canvas" content="1080x1080"><style>body { margin: 0 } .page { width: 1080px !important; height: 1080px !important; padding: 60px; box-sizing: border-box; overflow: hidden; font: 44px DejaVu Sans }</style>
<div class="page" data-svc-page="a"><h1>Weekly digest</h1><p>Everything that shipped this week, with the notes of the people who shipped it.</p></div>`,
  centred: `<meta name="svc-canvas" content="1080x1080"><style>body { margin: 0 } .page { position: relative; width: 1080px; height: 1080px; overflow: hidden; font-family: DejaVu Sans }
.title { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); width: 800px; font-size: 80px; text-align: center } .logo { position: absolute; right: 40px; top: 40px; width: 120px; height: 120px; background: #333 }</style>
<div class="page" data-svc-page="a"><div class="title">Grand opening tonight</div><div class="logo"></div></div>`,
};

describe('adapting canvases in the browser', () => {
  for (const [kind, source] of Object.entries({ ...adaptCanvases, ...moreCanvases })) {
    test(`${kind}: every size renders at its size, keeps each page's text, and no text leaves its page`, async () => {
      const original = await measure(source, 1080, 1080);
      expect(original.every((page) => page.outside.length === 0)).toBe(true);
      const adapted = await adaptSource(ctx, source, sizes);
      expect(adapted).toHaveLength(sizes.length);
      for (const [index, entry] of adapted.entries()) {
        const { width, height } = sizes[index]!;
        expect(entry).toMatchObject({ width, height });
        if (!('source' in entry)) throw new Error(`no source for ${width}x${height}`);
        expect(entry.source).toContain(`content="${width}x${height}"`);
        expect(entry.source).not.toContain('data-svc-adapt');
        const pages = await measure(entry.source, width, height);
        expect(pages.map((page) => [page.id, page.text])).toEqual(original.map((page) => [page.id, page.text]));
        for (const page of pages) {
          expect([page.id, Math.round(page.width), Math.round(page.height)]).toEqual([page.id, width, height]);
          expect([page.id, `${width}x${height}`, page.outside]).toEqual([page.id, `${width}x${height}`, []]);
        }
        const image = await engine.renderImage({ account: 'test', html: entry.source, image: { format: 'png', width, height, transparent: false }, javascript: 'disabled', pages: [pages[0]!.id], timeoutMs: 30_000 });
        const metadata = await sharp(image.bytes).metadata();
        expect([metadata.width, metadata.height]).toEqual([width, height]);
      }
    });
  }

  test('flow text reflows at the new aspect ratio with its type scaled as far as the page allows', async () => {
    const [tall, wide] = await adaptSource(ctx, adaptCanvases.flow!, [{ width: 1080, height: 1920 }, { width: 1920, height: 1080 }]);
    for (const entry of [tall, wide]) {
      if (!entry || !('source' in entry)) throw new Error('not adapted');
      const zoom = Number(/zoom: ([\d.]+)/.exec(entry.source)?.[1]);
      // at least the scale that keeps the whole design (1), at most the area-preserving one (1.333)
      expect(zoom).toBeGreaterThanOrEqual(1);
      expect(zoom).toBeLessThanOrEqual(1.3334);
    }
  });

  test('positioned elements keep their anchors; the same request answers the same sources', async () => {
    const first = await adaptSource(ctx, adaptCanvases.positioned!, sizes);
    expect(await adaptSource(ctx, adaptCanvases.positioned!, sizes)).toEqual(first);
    const entry = first[1]!;
    if (!('source' in entry)) throw new Error('not adapted');
    const image = await engine.renderImage({ account: 'test', html: entry.source, image: { format: 'png', width: 1920, height: 1080, transparent: false }, javascript: 'disabled', timeoutMs: 30_000 });
    const { data, info } = await sharp(image.bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect(pixel(1915, 5)).toEqual([0, 255, 0]); // the banner spans the new width
    expect(pixel(50, 210)).toEqual([255, 0, 0]); // start margins kept
    expect(pixel(1920 - 50, 1080 - 50)).toEqual([0, 0, 255]); // end margins kept, from right and bottom
  });

  test('answers resize_source_unsupported without canvas meta and resize_no_layout for an empty canvas', async () => {
    expect(await adaptSource(ctx, '<p>no canvas</p>', [{ width: 400, height: 400 }])).toEqual([{ width: 400, height: 400, errorCode: 'resize_source_unsupported' }]);
    expect(await adaptSource(ctx, '<meta name="svc-canvas" content="800x600"><p>no page</p>', [{ width: 400, height: 400 }])).toEqual([
      { width: 400, height: 400, errorCode: 'resize_no_layout' },
    ]);
  });
});
