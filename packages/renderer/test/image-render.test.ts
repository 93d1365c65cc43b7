// Images: exact pixel size, real format, quality, transparency, and a single canvas page's
// region; all read back with sharp.
import puppeteer from 'puppeteer-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError, type EffectiveImageOptions } from '@svc/contracts';
import { DEFAULT_CHROMIUM_PATH, headlessMode, Renderer } from '../src/index.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const PICTURE = `<body style="margin:0">
  <div style="height:50vh;background:linear-gradient(90deg,#08f,#f80)"></div>
  <h1 style="font:48px sans-serif">Image render</h1></body>`;

const render = (image: EffectiveImageOptions, html = PICTURE, pages?: string[]) => renderer.renderImage({ html, image, javascript: 'disabled', pages });

async function rgbaAt(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [...data.subarray(offset, offset + 4)];
}

describe('exact size and real format', () => {
  const cases: [EffectiveImageOptions['format'], number, number][] = [
    ['png', 320, 200],
    ['jpeg', 1280, 720],
    ['webp', 1920, 1080],
    ['png', 333, 517],
    ['jpeg', 7680, 4320],
  ];
  test.concurrent.for(cases)('%s %ix%i', async ([format, width, height]) => {
    const output = await render({ format, width, height });
    expect(output.mediaType).toBe(`image/${format}`);
    const metadata = await sharp(output.bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual([format, width, height]);
  });
});

test('quality: default 80, lower is smaller, for jpeg and webp', async () => {
  const encode = (format: 'jpeg' | 'webp', quality?: number) => render({ format, width: 800, height: 600, quality }).then((output) => output.bytes);
  for (const format of ['jpeg', 'webp'] as const) {
    const [low, byDefault, eighty] = await Promise.all([encode(format, 10), encode(format), encode(format, 80)]);
    expect(byDefault.equals(eighty)).toBe(true);
    expect(low.length).toBeLessThan(eighty.length);
  }
});

test('quality is refused for png, transparency for jpeg', async () => {
  const png = await render({ format: 'png', width: 320, height: 200, quality: 50 }).catch((error: unknown) => error);
  expect((png as RenderError).category).toBe('invalid_input');
  const jpeg = await render({ format: 'jpeg', width: 320, height: 200, transparent: true }).catch((error: unknown) => error);
  expect((jpeg as RenderError).category).toBe('invalid_input');
});

test('transparent png and webp keep an unpainted background clear; otherwise it is white', async () => {
  const html = '<body style="margin:0"><div style="width:100px;height:100px;background:#00f"></div></body>';
  for (const format of ['png', 'webp'] as const) {
    const clear = await render({ format, width: 320, height: 200, transparent: true }, html);
    expect((await sharp(clear.bytes).metadata()).hasAlpha).toBe(true);
    expect((await rgbaAt(clear.bytes, 300, 180))[3]).toBe(0);
    expect(await rgbaAt(clear.bytes, 50, 50)).toEqual([0, 0, 255, 255]);
  }
  const opaque = await render({ format: 'png', width: 320, height: 200 }, html);
  expect(await rgbaAt(opaque.bytes, 300, 180)).toEqual([255, 255, 255, 255]);
});

test("a png holds exactly the pixels Chromium drew; a picture with gradients takes fewer bytes than Chromium's own png", async () => {
  // no text, so that nothing depends on the service's font configuration: a gradient, soft
  // shadows and translucent anti-aliased shapes
  const html = `<body style="margin:0;background:linear-gradient(135deg,#1e3c72,#2a5298)">
    <div style="margin:40px;width:300px;height:200px;border-radius:40px;background:rgba(255,200,0,0.6);box-shadow:0 10px 40px rgba(0,0,0,0.5)"></div>
    <svg width="400" height="200"><circle cx="100" cy="100" r="80" fill="rgba(0,255,128,0.4)"/><path d="M200 10 L390 190 L210 150 Z" fill="#f0a"/></svg></body>`;
  const plain = '<div style="margin:40px;width:300px;height:200px;border-radius:40px;background:rgba(0,128,255,0.5)"></div>';
  const executablePath = process.env.SVC_CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
  const browser = await puppeteer.launch({ executablePath, headless: headlessMode(executablePath), args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'] });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 800, height: 500 });
    for (const [document, transparent, smaller] of [
      [html, false, true],
      // a flat shape compresses about as well either way
      [plain, true, false],
    ] as const) {
      await page.setContent(document, { waitUntil: 'load' });
      const chromium = Buffer.from(await page.screenshot({ type: 'png', omitBackground: transparent }));
      const service = (await render({ format: 'png', width: 800, height: 500, transparent }, document)).bytes;
      const [drawn, served] = await Promise.all([chromium, service].map((bytes) => sharp(bytes).raw().toBuffer({ resolveWithObject: true })));
      expect(served!.info.channels).toBe(transparent ? 4 : 3);
      expect(served!.info.channels).toBe(drawn!.info.channels);
      expect(served!.data.equals(drawn!.data)).toBe(true);
      if (smaller) expect(service.length).toBeLessThan(chromium.length * 0.75);
    }
  } finally {
    await browser.close();
  }
});

describe('one canvas page', () => {
  // three 400x300 canvas pages stacked, the third far below the viewport
  const CANVASES = `<body style="margin:0">
    <section data-svc-page="red" style="width:400px;height:300px;background:#f00"></section>
    <section data-svc-page="green" style="width:400px;height:300px;background:#0f0"></section>
    <div style="height:2000px"></div>
    <section data-svc-page="blue" style="width:400px;height:300px;background:#00f"></section></body>`;

  test.concurrent.for([
    ['green', [0, 255, 0, 255]],
    ['blue', [0, 0, 255, 255]],
  ] as [string, number[]][])('the %s page region, at exactly the image size', async ([id, colour]) => {
    const output = await render({ format: 'png', width: 400, height: 300 }, CANVASES, [id]);
    const metadata = await sharp(output.bytes).metadata();
    expect([metadata.width, metadata.height]).toEqual([400, 300]);
    for (const [x, y] of [
      [0, 0],
      [399, 299],
      [200, 150],
    ] as const) {
      expect(await rgbaAt(output.bytes, x, y)).toEqual(colour);
    }
  });

  test('an unknown id, or more than one page, is refused', async () => {
    const unknown = await render({ format: 'png', width: 400, height: 300 }, CANVASES, ['purple']).catch((error: unknown) => error);
    expect([(unknown as RenderError).category, (unknown as RenderError).code]).toEqual(['invalid_input', 'unknown_page']);
    const many = await render({ format: 'png', width: 400, height: 300 }, CANVASES, ['red', 'green']).catch((error: unknown) => error);
    expect((many as RenderError).category).toBe('invalid_input');
  });
});
