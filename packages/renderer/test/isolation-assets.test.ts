// What the sandbox does allow: data: URLs and asset:// references answered by the resolver.
// Checked on the pixels, since "did not fail" would also pass for an image that never loaded.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { RenderError, type AssetResolver } from '@svc/contracts';
import { Renderer } from '../src/index.ts';

let renderer: Renderer;
let redPng: Buffer;

const RED_ASSET = 'asset://asset_0123456789abcdef0123456789abcdef';
const FONT_ASSET = 'asset://asset_fedcba9876543210fedcba9876543210';
const UNKNOWN_ASSET = 'asset://asset_00000000000000000000000000000000';

beforeAll(async () => {
  redPng = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .png()
    .toBuffer();
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const resolverCalls: string[] = [];
const assets: AssetResolver = async (url) => {
  resolverCalls.push(url);
  if (url === RED_ASSET) return { bytes: redPng, mediaType: 'image/png' };
  if (url === FONT_ASSET) return { bytes: readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'), mediaType: 'font/ttf' };
  return null;
};

async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [...data.subarray(offset, offset + 3)];
}

const embeddedFonts = (pdf: Buffer) => execFileSync('pdffonts', ['-'], { input: pdf }).toString();

const fullBleed = (inner: string) => `<body style="margin:0;background:#fff">${inner}</body>`;

test('a data: image renders', async () => {
  const dataUrl = `data:image/png;base64,${redPng.toString('base64')}`;
  const output = await renderer.renderImage({
    html: fullBleed(`<img src="${dataUrl}" style="display:block;width:100px;height:100px">`),
    image: { format: 'png', width: 320, height: 200 },
    javascript: 'disabled',
  });
  expect(await pixel(output.bytes, 50, 50)).toEqual([255, 0, 0]);
  expect(await pixel(output.bytes, 200, 150)).toEqual([255, 255, 255]);
});

test('asset:// images render through the resolver, in <img> and in CSS url()', async () => {
  const output = await renderer.renderImage({
    html: fullBleed(
      `<img src="${RED_ASSET}" style="display:block;width:100px;height:100px">` +
        `<div style="position:absolute;left:200px;top:0;width:100px;height:100px;background:url('${RED_ASSET}') 0 0/100% 100%"></div>`,
    ),
    image: { format: 'png', width: 320, height: 200 },
    javascript: 'disabled',
    assets,
  });
  expect(await pixel(output.bytes, 50, 50)).toEqual([255, 0, 0]);
  expect(await pixel(output.bytes, 250, 50)).toEqual([255, 0, 0]);
  expect(await pixel(output.bytes, 150, 150)).toEqual([255, 255, 255]);
  expect(resolverCalls).toContain(RED_ASSET);
});

test('an asset:// web font is used (fonts load in CORS mode, which asset:// alone could not)', async () => {
  const text = (family: string) =>
    fullBleed(`<style>@font-face{font-family:Brand;src:url(${FONT_ASSET})}</style><span id=t style="font:40px ${family}">Wide Text</span>`);
  const render = (family: string) =>
    renderer.renderPdf({ html: text(family), pdf: {}, viewport: { width: 800, height: 600, device_scale_factor: 1 }, javascript: 'disabled', assets });
  // the PDF embeds the fonts it drew with: DejaVu Sans Bold from the asset, not the fallback
  expect(embeddedFonts((await render('Brand, monospace')).bytes)).toMatch(/DejaVuSans-Bold/);
  expect(embeddedFonts((await render('monospace')).bytes)).not.toMatch(/DejaVuSans-Bold/);
});

test('an unknown asset:// reference fails as unsafe_asset', async () => {
  const error = await renderer
    .renderImage({ html: `<img src="${UNKNOWN_ASSET}">`, image: { format: 'png', width: 320, height: 200 }, javascript: 'disabled', assets })
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RenderError);
  expect([(error as RenderError).category, (error as RenderError).code]).toEqual(['unsafe_asset', 'unknown_asset']);
});

test('asset references fail without a resolver, and a malformed one is not an asset', async () => {
  for (const html of [`<img src="${RED_ASSET}">`, '<img src="asset://asset_xyz">']) {
    const error = await renderer
      .renderPdf({ html, pdf: {}, viewport: { width: 800, height: 600, device_scale_factor: 1 }, javascript: 'disabled' })
      .catch((caught: unknown) => caught);
    expect((error as RenderError).category).toBe('unsafe_asset');
  }
});

test('a failing resolver fails the job as internal_failure, not as a customer error', async () => {
  const error = await renderer
    .renderPdf({
      html: `<img src="${RED_ASSET}">`,
      pdf: {},
      viewport: { width: 800, height: 600, device_scale_factor: 1 },
      javascript: 'disabled',
      assets: async () => {
        throw new Error('storage down');
      },
    })
    .catch((caught: unknown) => caught);
  expect([(error as RenderError).category, (error as RenderError).code]).toEqual(['internal_failure', 'asset_resolver_failed']);
});
