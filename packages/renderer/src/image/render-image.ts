// Image capture of a loaded sandbox page: exactly width x height pixels (the viewport is the
// image, at device scale factor 1), encoded by Chromium and checked with sharp.
import type { Page, ScreenshotOptions } from 'puppeteer-core';
import sharp from 'sharp';
import { type EffectiveImageOptions, RenderError } from '@svc/contracts';
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

export async function captureImage(page: Page, image: EffectiveImageOptions, pages: readonly string[] | undefined): Promise<Buffer> {
  const options: ScreenshotOptions = {
    type: image.format,
    omitBackground: image.transparent === true && image.format !== 'jpeg',
    optimizeForSpeed: false,
  };
  if (image.format !== 'png') options.quality = image.quality ?? DEFAULT_QUALITY;
  const pageId = pages?.[0];
  if (pageId !== undefined) {
    // the canvas page's own region, from its top-left corner, at the requested size
    const origin = await locateCanvasPage(page, pageId);
    options.clip = { x: origin.x, y: origin.y, width: image.width, height: image.height };
    options.captureBeyondViewport = true;
  } else {
    options.captureBeyondViewport = false;
  }
  const shot = await page.screenshot(options);
  // the screenshot's own bytes, seen as a Buffer (not copied)
  const bytes = Buffer.from(shot.buffer, shot.byteOffset, shot.byteLength);
  await checkImage(bytes, image);
  return bytes;
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
