// Image uploads over real HTTP: what is accepted, what is refused and why, exact bytes back,
// and the account quota under concurrent uploads.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject, describe, expect, it } from 'vitest';
import { api, emptyBucket, expectError, newAccount, serviceDb } from './support/api.ts';
import { animatedGif, animatedWebp, apng, content, holdAssets, jpeg, png, rotatedJpeg, solid, stillGif, upload, webp } from './support/images.ts';
import { securitySuite } from './support/security.ts';

const MiB = 1024 * 1024;

async function storedFiles(accountId: string): Promise<string[]> {
  return readdir(join(inject('filesDir'), accountId, 'assets')).catch(() => []);
}

/** Files the account already holds: their records and the usage the quota counts. */
describe('POST /v1/image-assets', () => {
  it('stores PNG, JPEG and WebP and answers their exact bytes, privately and unsniffed', async () => {
    const account = await newAccount();
    for (const [type, bytes, width, height] of [
      ['image/png', await png(40, 30), 40, 30],
      ['image/jpeg', await jpeg(64, 48), 64, 48],
      ['image/webp', await webp(20, 10), 20, 10],
    ] as const) {
      const created = await upload(account.apiKey, bytes, type);
      expect(created.status).toBe(201);
      const id = created.body.id;
      expect(created.body).toEqual({ id, reference: `asset://${id}`, media_type: type, byte_size: bytes.length, width, height });
      expect(id).toMatch(/^asset_[0-9a-f]{32}$/);
      const read = await content(account.apiKey, id);
      expect(read.status).toBe(200);
      expect(read.bytes.equals(bytes)).toBe(true);
      expect(read.headers.get('content-type')).toBe(type);
      expect(read.headers.get('cache-control')).toBe('private, no-store');
      expect(read.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('reports the size as displayed after EXIF orientation, and accepts a Content-Type with parameters', async () => {
    const account = await newAccount();
    const created = await upload(account.apiKey, await rotatedJpeg(200, 100), 'Image/JPEG; charset=binary');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ media_type: 'image/jpeg', width: 100, height: 200 });
  });

  it('spends no credit', async () => {
    const account = await newAccount({ credits: 0 });
    expect((await upload(account.apiKey, await png(10, 10), 'image/png')).status).toBe(201);
  });

  it('refuses other and missing types, and bytes that are not what the type says', async () => {
    const account = await newAccount();
    const still = await png(10, 10);
    const cases: [Buffer, string | null, number, string, string][] = [
      [still, null, 422, 'image_asset_type_unsupported', 'body.type_unsupported'],
      [still, 'application/octet-stream', 422, 'image_asset_type_unsupported', 'body.type_unsupported'],
      [await stillGif(), 'image/gif', 422, 'image_asset_type_unsupported', 'body.type_unsupported'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', 422, 'image_asset_type_unsupported', 'body.type_unsupported'],
      [still, 'image/jpeg', 422, 'image_asset_invalid', 'body.type_mismatch'],
      [await webp(10, 10), 'image/png', 422, 'image_asset_invalid', 'body.type_mismatch'],
      [await stillGif(), 'image/png', 422, 'image_asset_invalid', 'body.type_mismatch'],
      [Buffer.from('not an image at all'), 'image/png', 422, 'image_asset_invalid', 'body.type_mismatch'],
      [Buffer.alloc(0), 'image/png', 400, 'invalid_upload', 'body.empty'],
    ];
    for (const [bytes, type, status, code, field] of cases) {
      const error = expectError(await upload(account.apiKey, bytes, type), status, code);
      expect(error.details, `${type} ${field}`).toEqual([{ field, reason: 'invalid value' }]);
    }
    expect(await serviceDb().asset.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await storedFiles(account.accountId)).toEqual([]);
  });

  it('refuses animations: GIF and WebP frames, and APNG', async () => {
    const account = await newAccount();
    for (const [bytes, type] of [
      [await animatedGif(), 'image/png'],
      [await animatedWebp(), 'image/webp'],
      [await apng(), 'image/png'],
    ] as const) {
      const error = expectError(await upload(account.apiKey, bytes, type), 422, 'image_asset_invalid');
      expect(error.details).toEqual([{ field: 'body.animated', reason: 'invalid value' }]);
    }
  });

  it('refuses damaged files', async () => {
    const account = await newAccount();
    const whole = await solid(300, 300, '#123456').png({ compressionLevel: 0 }).toBuffer();
    const truncated = whole.subarray(0, Math.floor(whole.length / 2));
    const error = expectError(await upload(account.apiKey, truncated, 'image/png'), 422, 'image_asset_invalid');
    expect(error.details).toEqual([{ field: 'body.corrupt', reason: 'invalid value' }]);
    const jpegBytes = await jpeg(300, 300);
    expectError(await upload(account.apiKey, jpegBytes.subarray(0, 400), 'image/jpeg'), 422, 'image_asset_invalid');
  });

  it('refuses images over 7680x4320 as displayed, 32 million pixels or 64 MiB decoded', async () => {
    const account = await newAccount();
    const refused = async (bytes: Buffer, type: string, reason: string) => {
      const error = expectError(await upload(account.apiKey, bytes, type), 422, 'image_asset_invalid');
      expect(error.details).toEqual([{ field: `body.${reason}`, reason: 'invalid value' }]);
    };
    await refused(await png(7681, 8), 'image/png', 'dimensions_exceeded');
    await refused(await png(8, 4321), 'image/png', 'dimensions_exceeded');
    // stored 4400 wide (allowed), displayed 4400 high (not)
    await refused(await rotatedJpeg(4400, 16), 'image/jpeg', 'dimensions_exceeded');
    await refused(await png(7680, 4200), 'image/png', 'pixels_exceeded');
    // 6000 x 3000 x 4 channels = 72,000,000 bytes decoded; the same with 3 channels fits
    await refused(await png(6000, 3000, '#ff0000', 4), 'image/png', 'decoded_size_exceeded');
    expect((await upload(account.apiKey, await png(6000, 3000, '#ff0000', 3), 'image/png')).status).toBe(201);
    // one channel: 31,994,880 pixels and as many bytes decoded, inside both limits
    const grey = await solid(7680, 4166, '#808080').toColourspace('b-w').png().toBuffer();
    expect((await upload(account.apiKey, grey, 'image/png')).body).toMatchObject({ width: 7680, height: 4166 });
  });

  it('answers 413 image_asset_too_large above 10 MiB', async () => {
    const account = await newAccount();
    const big = Buffer.concat([await png(10, 10), randomBytes(10 * MiB)]);
    expectError(await upload(account.apiKey, big, 'image/png'), 413, 'image_asset_too_large');
    expect(await storedFiles(account.accountId)).toEqual([]);
  });

  it('holds at most 100 files: of 20 concurrent uploads at the edge exactly the ones that fit succeed', async () => {
    const account = await newAccount();
    await holdAssets(account.accountId, Array(95).fill(1000));
    const bytes = await png(12, 12);
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(account.apiKey, bytes, 'image/png')));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    for (const answer of answers.filter((item) => item.status !== 201)) expectError(answer, 409, 'image_asset_limit');
    expect(await serviceDb().asset.count({ where: { accountId: account.accountId } })).toBe(100);
    expect(await serviceDb().accountAssetUsage.findUnique({ where: { accountId: account.accountId } })).toMatchObject({ files: 100 });
    // refused uploads leave no file behind
    expect(await storedFiles(account.accountId)).toHaveLength(5);
  });

  it('holds at most 100 MiB: of 20 concurrent uploads at the edge exactly the ones that fit succeed', async () => {
    const account = await newAccount();
    const bytes = await png(12, 12);
    // room for exactly three more of these files
    const room = 3 * bytes.length + bytes.length - 1;
    await holdAssets(account.accountId, [50 * MiB, 50 * MiB - room]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(account.apiKey, bytes, 'image/png')));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    for (const answer of answers.filter((item) => item.status !== 201)) expectError(answer, 409, 'image_asset_limit');
    expect(await storedFiles(account.accountId)).toHaveLength(3);
  });

  it('has a rate limit per key: 429 with Retry-After once the bucket is empty', async () => {
    const account = await newAccount();
    // twenty at once fit the idle burst of 25
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(account.apiKey, Buffer.alloc(0), 'image/png')));
    for (const answer of answers) expectError(answer, 400, 'invalid_upload');
    await emptyBucket('image_asset_upload', account);
    const limited = await upload(account.apiKey, await png(4, 4), 'image/png');
    const wait = expectError(limited, 429, 'rate_limited').retry?.retry_after_seconds;
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('retry-after')).toBe(String(wait));
    expect(await serviceDb().asset.count({ where: { accountId: account.accountId } })).toBe(0);
  });

  it('keeps accounts apart: the same 404 for a foreign, a missing and a malformed id', async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const created = await upload(owner.apiKey, await png(5, 5), 'image/png');
    const foreign = await api(`/v1/image-assets/${created.body.id}/content`, { key: stranger.apiKey });
    const missing = await api(`/v1/image-assets/asset_${'0'.repeat(32)}/content`, { key: stranger.apiKey });
    for (const response of [foreign, missing]) expectError(response, 404, 'not_found');
    expect(foreign.text).not.toContain(created.body.id);
  });
});

securitySuite('POST /v1/image-assets', { method: 'POST', path: () => '/v1/image-assets', headers: { 'content-type': 'image/png' } });
securitySuite('GET /v1/image-assets/{id}/content', {
  method: 'GET',
  path: (owned) => `/v1/image-assets/${owned}/content`,
  arrange: async (account) => (await upload(account.apiKey, await png(4, 4), 'image/png')).body.id,
  missingId: `asset_${'f'.repeat(32)}`,
});
