import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount } from './support/api.ts';
import { imageInfo, renderOk } from './support/files.ts';

const page = '<html><body style="margin:0;background:#3366ff"><h1 style="color:white">Launch day</h1></body></html>';

describe('POST /v1/image', () => {
  it('renders PNG, JPEG and WebP at exactly the requested size', async () => {
    const account = await newAccount();
    for (const [format, width, height] of [
      ['png', 1280, 720],
      ['jpeg', 320, 200],
      ['webp', 1080, 1350],
    ] as const) {
      const { job, file } = await renderOk('image', account.apiKey, { html: page, image: { format, width, height } });
      expect(job.id).toMatch(/^image_[0-9a-f]{32}$/);
      expect(job.artifact.media_type).toBe(`image/${format}`);
      expect(file.contentType).toBe(`image/${format}`);
      expect(await imageInfo(file.bytes)).toMatchObject({ format, width, height });
      const { data } = await sharp(file.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      // the page background fills the image: blue dominates the first pixel
      expect(data[2]).toBeGreaterThan(200);
      expect(data[0]).toBeLessThan(100);
    }
  });

  it('defaults to 1280x720 and keeps the background transparent when asked', async () => {
    const account = await newAccount();
    const { file } = await renderOk('image', account.apiKey, { html: '<p style="margin:0">Hi</p>', image: { format: 'png', transparent: true } });
    expect(await imageInfo(file.bytes)).toMatchObject({ width: 1280, height: 720, hasAlpha: true });
    const { data, info } = await sharp(file.bytes).raw().toBuffer({ resolveWithObject: true });
    const lastPixelAlpha = data[(info.width * info.height - 1) * info.channels + 3];
    expect(lastPixelAlpha).toBe(0);
  });

  it('uses quality for JPEG: lower quality, smaller file', async () => {
    const account = await newAccount();
    const noisy = `<div style="width:1280px;height:720px;background:repeating-linear-gradient(45deg,#f00 0 3px,#0f0 3px 7px,#00f 7px 11px)"></div>`;
    const low = await renderOk('image', account.apiKey, { html: noisy, image: { format: 'jpeg', quality: 10 } });
    const high = await renderOk('image', account.apiKey, { html: noisy, image: { format: 'jpeg', quality: 95 } });
    expect(low.file.bytes.length).toBeLessThan(high.file.bytes.length);
  });

  it('refuses quality for PNG, transparency for JPEG, sizes out of range and a missing image object', async () => {
    const account = await newAccount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ html: 'x', image: { format: 'png', quality: 80 } }, 'image.quality', 'invalid value'],
      [{ html: 'x', image: { format: 'jpeg', transparent: true } }, 'image.transparent', 'invalid value'],
      [{ html: 'x', image: { format: 'gif' } }, 'image.format', 'invalid value'],
      [{ html: 'x', image: { format: 'png', width: 7681 } }, 'image.width', 'invalid value'],
      [{ html: 'x', image: { format: 'png', height: 199 } }, 'image.height', 'invalid value'],
      [{ html: 'x', image: { format: 'webp', quality: 0 } }, 'image.quality', 'invalid value'],
      [{ html: 'x' }, 'image', 'missing field'],
      [{ html: 'x', image: {} }, 'image.format', 'missing field'],
      [{ html: 'x', image: { format: 'png' }, pdf: {} }, 'pdf', 'unknown field'],
    ];
    for (const [body, field, reason] of cases) {
      const error = expectError(await api('/v1/image', { method: 'POST', key: account.apiKey, body }), 400, 'invalid_request');
      expect(error.details, JSON.stringify(body)).toContainEqual({ field, reason });
    }
  });
});
