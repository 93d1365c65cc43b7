// An image render's thumbnail in the dashboard's history: the web process scales the image down
// at the first request and stores the result beside the file, recorded on the job; every later
// request serves the stored thumbnail without decoding the image again, and the thumbnail goes
// with the file.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { api, baseUrl, newAccount, serviceDb } from './support/api.ts';
import { renderOk } from './support/files.ts';
import { signIn } from './support/sessions.ts';

describe('an image render’s thumbnail', () => {
  it('is made once from a 7680 x 4320 image, then served as stored without a decode', async () => {
    const account = await newAccount();
    const { job } = await renderOk('image', account.apiKey, {
      html: '<body style="margin:0;background:#1e64c8"></body>',
      filename: 'large-banner',
      image: { format: 'png', width: 7680, height: 4320 },
    });
    const session = await signIn(account.accountId);
    const thumbnail = async () => {
      const started = performance.now();
      const response = await fetch(`${baseUrl()}/dashboard/renders/${job.id}/thumbnail`, { headers: { cookie: session.cookie } });
      const bytes = Buffer.from(await response.arrayBuffer());
      return { status: response.status, type: response.headers.get('content-type'), bytes, ms: Math.round(performance.now() - started) };
    };
    const filesDir = inject('filesDir');

    const first = await thumbnail();
    expect(first.status).toBe(200);
    expect(first.type).toBe('image/webp');
    // the image's own pixels, scaled to fit 160 px: 160 x 90, blue like the render
    const metadata = await sharp(first.bytes).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 160, height: 90 });
    const { dominant } = await sharp(first.bytes).stats();
    expect(dominant.b).toBeGreaterThan(150);
    expect(dominant.r).toBeLessThan(80);

    // stored beside the file and recorded on the job, byte for byte what was answered
    const row = await serviceDb().renderJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.thumbnailKey).toBe(row.storageKey!.replace(/\.png$/, '.thumbnail.webp'));
    expect((await readFile(join(filesDir, row.thumbnailKey!))).equals(first.bytes)).toBe(true);

    // the image itself replaced by bytes no decoder reads: an answer now can only be the stored one
    await writeFile(join(filesDir, row.storageKey!), 'not an image');
    const second = await thumbnail();
    expect(second.status).toBe(200);
    expect(second.type).toBe('image/webp');
    expect(second.bytes.equals(first.bytes)).toBe(true);
    console.log(`thumbnail of a 7680 x 4320 PNG: first request ${first.ms} ms (decoded and stored), second ${second.ms} ms (stored)`);

    // deleting the render removes the thumbnail with the file
    expect((await api(`/v1/image/${job.id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(200);
    expect(existsSync(join(filesDir, row.thumbnailKey!))).toBe(false);
    expect((await thumbnail()).status).toBe(404);
  }, 180_000);
});
