// Image capture of a loaded sandbox page: exactly width x height pixels (the viewport is the
// image, at device scale factor 1), encoded by Chromium and checked with sharp. A PNG is
// compressed again by sharp outside the browser (see compressPng).
import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import sharp from 'sharp';
import { type EffectiveImageOptions, RenderError } from '@svc/contracts';
import { captureScreenshot } from '../browser/devtools-pipe.ts';
import { locateCanvasPage } from '../canvas/select-canvas-pages.ts';

const DEFAULT_QUALITY = 80;

/** Checks that need no browser, so a bad request never takes a pool slot. */
export function prepareImage(image: EffectiveImageOptions, pages: readonly string[] | undefined): void {
  if (!['png', 'jpeg', 'webp'].includes(image.format)) throw new RenderError('invalid_input', 'invalid_image_format');
  for (const side of [image.width, image.height]) {
    if (!Number.isInteger(side) || side < 1) throw new RenderError('invalid_input', 'invalid_image_size', 'image sides must be positive integers');
  }
  if (image.quality !== undefined && (image.format === 'png' || !Number.isInteger(image.quality) || image.quality < 1 || image.quality > 100)) {
    throw new RenderError('invalid_input', 'invalid_quality', 'quality is 1 to 100 and only for jpeg and webp');
  }
  if (image.transparent && image.format === 'jpeg') throw new RenderError('invalid_input', 'invalid_transparency', 'jpeg has no transparency');
  if (pages && pages.length > 1) throw new RenderError('invalid_input', 'too_many_pages', 'an image shows at most one canvas page');
}

/**
 * What puppeteer's page.screenshot sends for these options (no viewport change, no scroll:
 * the viewport is the image), sent on the sandbox's own session so that the image's bytes come
 * straight from the DevTools pipe (devtools-pipe.ts) rather than through a parse of the answer.
 * A PNG is asked for Chromium's fast encoding, which compressPng then compresses.
 */
export async function captureImage(page: Page, session: CDPSession, image: EffectiveImageOptions, pages: readonly string[] | undefined): Promise<Buffer> {
  const params: Protocol.Page.CaptureScreenshotRequest = { format: image.format, optimizeForSpeed: image.format === 'png', fromSurface: true, captureBeyondViewport: false };
  if (image.format !== 'png') params.quality = image.quality ?? DEFAULT_QUALITY;
  const pageId = pages?.[0];
  if (pageId !== undefined) {
    // the canvas page's own region, from its top-left corner, at the requested size
    const origin = await locateCanvasPage(page, pageId);
    const x = Math.round(origin.x);
    const y = Math.round(origin.y);
    params.clip = { x, y, width: Math.round(image.width + origin.x - x), height: Math.round(image.height + origin.y - y), scale: 1 };
    params.captureBeyondViewport = true;
  }
  const transparent = image.transparent === true && image.format !== 'jpeg';
  if (transparent) await session.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
  try {
    const bytes = await captureScreenshot(page, session, params);
    await checkImage(bytes, image);
    return bytes;
  } finally {
    if (transparent) await session.send('Emulation.setDefaultBackgroundColorOverride', {}).catch(() => undefined);
  }
}

/** The artifact contract is exact: wrong pixels or format would be a silent defect. */
async function checkImage(bytes: Buffer, image: EffectiveImageOptions): Promise<void> {
  const metadata = await sharp(bytes).metadata();
  if (metadata.width !== image.width || metadata.height !== image.height || metadata.format !== image.format) {
    throw new RenderError(
      'renderer_failure',
      'unexpected_image',
      `expected ${image.format} ${image.width}x${image.height}, got ${metadata.format} ${metadata.width}x${metadata.height}`,
    );
  }
}

/** How sharp writes a PNG: zlib's default level, no per-row filter choice (see compressPng). */
const PNG_OUTPUT = { compressionLevel: 6, adaptiveFiltering: false } as const;

/**
 * Compresses a PNG Chromium encoded for speed, losslessly: the same pixels and channels (RGB,
 * or RGBA for a transparent image). Chromium's own compression of a PNG costs most of an image
 * render's browser time (a 1280x720 gradient: 138 ms of browser CPU for 280 KB), its fast
 * encoding a third of that (39 ms, 681 KB), and sharp's compression of the result 26 ms for
 * 106 KB: a PNG costs less than half as much, and most come out smaller (a flat picture can
 * be a few percent larger). Run after the capture, outside the sandbox's pool slot. JPEG and
 * WebP gain nothing from it and keep Chromium's encoding.
 */
export async function compressPng(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).png(PNG_OUTPUT).toBuffer();
}
