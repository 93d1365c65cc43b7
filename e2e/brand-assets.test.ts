// Brand kit logos and fonts over real HTTP: uploads and their refusals, replacement in place with
// the old bytes kept for captured renders, the per-kit and per-account limits under concurrency,
// and the assets in real renders (a logo in a PNG, a font embedded in a PDF).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl, emptyBucket, expectError, newAccount, serviceDb, type TestAccount } from './support/api.ts';
import { download, pdfText, renderOk } from './support/files.ts';
import { ttf, woff2, woff2WithGlyphs } from './support/fonts.ts';
import { apng, content, holdAssets, jpeg, png, webp } from './support/images.ts';
import { securitySuite } from './support/security.ts';
import { until } from './support/until.ts';

const MiB = 1024 * 1024;
let serif: Buffer;

beforeAll(async () => {
  serif = await woff2('DejaVuSerif-Bold.ttf');
});

async function newKit(account: TestAccount, name = 'Acme'): Promise<string> {
  const created = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name, colours: ['#112233'] } });
  expect(created.status).toBe(201);
  return created.body.id;
}

interface RawAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** POST (no asset id) or PUT (an asset id) of raw bytes to a kit's assets; `type` null sends no Content-Type. */
async function send(key: string, kitId: string, bytes: Buffer, type: string | null, assetId?: string): Promise<RawAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (type !== null) headers['content-type'] = type;
  const path = `/v1/brand-kits/${kitId}/assets${assetId ? `/${assetId}` : ''}`;
  const response = await fetch(`${baseUrl()}${path}`, { method: assetId ? 'PUT' : 'POST', headers, body: new Uint8Array(bytes) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
}

async function read(key: string, kitId: string, assetId: string) {
  const response = await fetch(`${baseUrl()}/v1/brand-kits/${kitId}/assets/${assetId}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function added(account: TestAccount, kitId: string, bytes: Buffer, type: string): Promise<string> {
  const answer = await send(account.apiKey, kitId, bytes, type);
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id;
}

async function storedFiles(accountId: string): Promise<string[]> {
  try {
    return readdirSync(join(inject('filesDir'), accountId, 'assets'));
  } catch {
    return [];
  }
}

/** Rows standing for image files the account already holds (the quota counts rows). */
/** The colour of a rendered image at (x, y). */
async function pixel(bytes: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 3;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

/** pdffonts' table: font name, type, embedded. */
function pdfFonts(bytes: Buffer): { name: string; embedded: boolean }[] {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fonts-'));
  try {
    const path = join(dir, 'file.pdf');
    writeFileSync(path, bytes);
    const lines = execFileSync('pdffonts', [path], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean);
    return lines.map((line) => {
      const columns = line.trim().split(/\s+/);
      // name type [encoding...] emb sub uni object ID: emb is the fifth column from the end
      return { name: columns[0]!, embedded: columns[columns.length - 5] === 'yes' };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const image = { format: 'png', width: 320, height: 200 } as const;

describe('POST /v1/brand-kits/{id}/assets', () => {
  it('stores logos and fonts, lists the current ones in the kit, and answers their exact bytes privately', async () => {
    const account = await newAccount({ credits: 0 });
    const kitId = await newKit(account);
    const files = [
      ['image/png', await png(40, 30), 'logo'],
      ['image/jpeg', await jpeg(20, 20), 'logo'],
      ['image/webp', await webp(10, 10), 'logo'],
      ['font/woff2', serif, 'font'],
    ] as const;
    const ids: string[] = [];
    for (const [type, bytes, kind] of files) {
      const answer = await send(account.apiKey, kitId, bytes, type);
      expect(answer.status, answer.text).toBe(201);
      const { id, created_at } = answer.body;
      expect(answer.body).toEqual({ id, kind, media_type: type, byte_size: bytes.length, created_at });
      expect(id).toMatch(/^asset_[0-9a-f]{32}$/);
      for (const got of [await read(account.apiKey, kitId, id), await content(account.apiKey, id)]) {
        expect(got.status).toBe(200);
        expect(got.bytes.equals(bytes)).toBe(true);
        expect(got.headers.get('content-type')).toBe(type);
        expect(got.headers.get('cache-control')).toBe('private, no-store');
        expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      }
      ids.push(id);
    }
    const detail = await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey });
    expect(detail.body.assets.map((asset: { id: string }) => asset.id)).toEqual(ids);
    const page = await api('/v1/brand-kits', { key: account.apiKey });
    expect(page.body.items[0]).not.toHaveProperty('assets');
    const patched = await api(`/v1/brand-kits/${kitId}`, { method: 'PATCH', key: account.apiKey, body: { name: 'Renamed' } });
    expect(patched.body.assets).toEqual(detail.body.assets);

    // templates read them: the first logo, all logos in kit order, fonts with the family from the font itself
    // spaces and commas end a reference for the admission check
    const source = '{{ brand.logo }} {% for logo in brand.logos %}{{ logo }},{% endfor %} {{ brand.fonts[0].family }} {{ brand.fonts[0].src }}';
    const preview = await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source, data: {}, brand_kit_id: kitId } });
    expect(preview.status, preview.text).toBe(200);
    const refs = ids.map((id) => `asset://${id}`);
    expect(preview.body.html).toBe(`${refs[0]} ${refs.slice(0, 3).join(',')}, DejaVu Serif ${refs[3]}`);
  });

  it('refuses what is not a valid logo or font, with the brand codes, and stores nothing', async () => {
    const account = await newAccount();
    const kitId = await newKit(account);
    const still = await png(10, 10);
    const truncated = serif.subarray(0, Math.floor(serif.length / 2));
    const cases: [Buffer, string | null, number, string, string | null][] = [
      [Buffer.alloc(0), 'image/png', 400, 'invalid_upload', 'body.empty'],
      [Buffer.alloc(10 * MiB + 1), 'image/png', 413, 'brand_asset_too_large', 'body.too_large'],
      [still, 'image/gif', 415, 'brand_asset_type_unsupported', 'body.type_unsupported'],
      [still, null, 415, 'brand_asset_type_unsupported', 'body.type_unsupported'],
      [await ttf('DejaVuSans.ttf'), 'font/woff2', 415, 'brand_asset_type_unsupported', null],
      [serif, 'image/png', 422, 'brand_asset_kind_mismatch', 'body.kind_mismatch'],
      [still, 'font/woff2', 422, 'brand_asset_kind_mismatch', 'body.kind_mismatch'],
      [still, 'image/jpeg', 422, 'brand_asset_invalid', 'body.type_mismatch'],
      [still.subarray(0, still.length - 20), 'image/png', 422, 'brand_asset_invalid', 'body.corrupt'],
      [await apng(), 'image/png', 422, 'brand_image_animated', 'body.animated'],
      [await png(7681, 8), 'image/png', 422, 'brand_image_dimensions_invalid', 'body.dimensions_exceeded'],
      [await png(7680, 4320), 'image/png', 422, 'brand_image_pixels_exceeded', 'body.pixels_exceeded'],
      [truncated, 'font/woff2', 422, 'brand_font_tables_invalid', null],
      [await woff2WithGlyphs('DejaVuSans.ttf', 20_001), 'font/woff2', 422, 'brand_font_glyphs_exceeded', null],
    ];
    for (const [bytes, type, status, code, field] of cases) {
      const error = expectError(await send(account.apiKey, kitId, bytes, type), status, code);
      if (field) expect(error.details, `${type} ${code}`).toEqual([{ field, reason: 'invalid value' }]);
    }
    expect(await serviceDb().asset.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await storedFiles(account.accountId)).toEqual([]);
  });

  it('takes assets only on an owned, active kit, and answers 429 when uploads come too fast', async () => {
    const account = await newAccount();
    const stranger = await newAccount();
    const kitId = await newKit(account);
    const logo = await png(10, 10);
    expectError(await send(stranger.apiKey, kitId, logo, 'image/png'), 404, 'brand_kit_not_found');
    expectError(await send(account.apiKey, 'kit_nope', logo, 'image/png'), 404, 'brand_kit_not_found');
    await emptyBucket('brand_asset_upload', account);
    const limited = await send(account.apiKey, kitId, logo, 'image/png');
    expectError(limited as any, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    await serviceDb().$executeRaw`DELETE FROM rate_limit_buckets WHERE key LIKE 'brand_asset_upload:%'`;
    const id = await added(account, kitId, logo, 'image/png');
    expect((await api(`/v1/brand-kits/${kitId}`, { method: 'DELETE', key: account.apiKey })).status).toBe(204);
    expectError(await send(account.apiKey, kitId, logo, 'image/png'), 409, 'brand_kit_conflict');
    expectError(await send(account.apiKey, kitId, logo, 'image/png', id), 409, 'brand_kit_conflict');
    // an archived kit's assets stay readable
    expect((await read(account.apiKey, kitId, id)).status).toBe(200);
    expectError((await api(`/v1/brand-kits/${kitId}/assets/${id}`, { key: stranger.apiKey })) as any, 404, 'brand_kit_not_found');
  });

  it('holds at most 16 current assets per kit; replacing one keeps the count', async () => {
    const account = await newAccount();
    const kitId = await newKit(account);
    const ids: string[] = [];
    for (let index = 0; index < 16; index += 1) ids.push(await added(account, kitId, await png(4, 4, `#0000${(index + 16).toString(16)}`), 'image/png'));
    expectError(await send(account.apiKey, kitId, await png(4, 4), 'image/png'), 409, 'brand_asset_limit_reached');
    const replaced = await send(account.apiKey, kitId, await png(5, 5), 'image/png', ids[3]);
    expect(replaced.status, replaced.text).toBe(201);
    const detail = await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey });
    expect(detail.body.assets.map((asset: { id: string }) => asset.id)).toEqual([...ids.slice(0, 3), replaced.body.id, ...ids.slice(4)]);
    expectError(await send(account.apiKey, kitId, await png(4, 4), 'image/png'), 409, 'brand_asset_limit_reached');
  });

  it('holds the account quota under 20 concurrent uploads at the edge: exactly the ones that fit succeed', async () => {
    const account = await newAccount();
    const kitId = await newKit(account);
    await holdAssets(account.accountId, Array(95).fill(1000));
    const bytes = await png(12, 12);
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(account.apiKey, kitId, bytes, 'image/png')));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    for (const answer of answers.filter((item) => item.status !== 201)) expectError(answer as any, 409, 'brand_asset_account_limit_reached');
    expect(await serviceDb().asset.count({ where: { accountId: account.accountId } })).toBe(100);
    // refused uploads leave no file behind
    expect(await storedFiles(account.accountId)).toHaveLength(5);
    const detail = await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey });
    expect(detail.body.assets).toHaveLength(5);
  });
});

describe('PUT /v1/brand-kits/{id}/assets/{asset_id}', () => {
  it('makes a new asset current in place; the old stays readable and a queued render keeps the captured logo', async () => {
    const account = await newAccount();
    const kitId = await newKit(account);
    const red = await png(32, 32, '#ff0000');
    const oldId = await added(account, kitId, red, 'image/png');
    const html = '<body style="margin:0;background:#fff"><img src="{{ brand.logo }}" style="display:block;width:320px;height:200px"></body>';
    const queued = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { html, brand_kit_id: kitId, image, wait: false } });
    // 202 while queued or running, 200 if it already ended (the contract's render job lifecycle)
    expect([200, 202], queued.text).toContain(queued.status);
    const captured = await serviceDb().renderJobAsset.findMany({ where: { jobId: queued.body.id } });
    expect(captured.map((row) => row.assetId)).toEqual([oldId]);

    const green = await png(32, 32, '#00ff00');
    const replaced = await send(account.apiKey, kitId, green, 'image/png', oldId);
    expect(replaced.status, replaced.text).toBe(201);
    expect(replaced.body).toMatchObject({ kind: 'logo', media_type: 'image/png', byte_size: green.length });
    expect(replaced.body.id).not.toBe(oldId);

    const job = await until(async () => {
      const got = await api(`/v1/image/${queued.body.id}`, { key: account.apiKey });
      return got.body.status === 'succeeded' ? got.body : null;
    });
    expect(await pixel((await download(job)).bytes, 160, 100)).toEqual([255, 0, 0]);
    const fresh = await renderOk('image', account.apiKey, { html, brand_kit_id: kitId, image });
    expect(await pixel(fresh.file.bytes, 160, 100)).toEqual([0, 255, 0]);

    expect((await read(account.apiKey, kitId, oldId)).bytes.equals(red)).toBe(true);
    expect((await read(account.apiKey, kitId, replaced.body.id)).bytes.equals(green)).toBe(true);
    const detail = await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey });
    expect(detail.body.assets.map((asset: { id: string }) => asset.id)).toEqual([replaced.body.id]);
    // only a current asset can be replaced
    expectError(await send(account.apiKey, kitId, green, 'image/png', oldId), 409, 'brand_kit_conflict');
  });

  it('refuses the other kind, assets not of the kit, and still checks the bytes', async () => {
    const account = await newAccount();
    const kitId = await newKit(account);
    const otherKit = await newKit(await newAccount());
    const fontId = await added(account, kitId, serif, 'font/woff2');
    expectError(await send(account.apiKey, kitId, await png(4, 4), 'image/png', fontId), 422, 'brand_asset_kind_invalid');
    expectError(await send(account.apiKey, kitId, serif, 'font/woff2', `asset_${'0'.repeat(32)}`), 404, 'not_found');
    expectError(await send(account.apiKey, otherKit, serif, 'font/woff2', fontId), 404, 'brand_kit_not_found');
    expectError(await send(account.apiKey, kitId, serif.subarray(0, 100), 'font/woff2', fontId), 422, 'brand_font_tables_invalid');
    expect((await read(account.apiKey, kitId, `asset_${'0'.repeat(32)}`)).status).toBe(404);
    expect(await serviceDb().asset.count({ where: { accountId: account.accountId } })).toBe(1);
  });
});

describe('brand assets in renders', () => {
  it('embeds the uploaded font in a PDF and sets the text in it, with no fallback font', async () => {
    const account = await newAccount();
    const kitId = await newKit(account);
    await added(account, kitId, serif, 'font/woff2');
    const html =
      '<style>@font-face { font-family: "BrandFace"; src: url({{ brand.fonts[0].src }}) format("woff2"); }' +
      'body { font-family: "BrandFace", sans-serif; font-size: 24px; }</style><body>Brand face {{ brand.fonts[0].family }}</body>';
    const { file } = await renderOk('pdf', account.apiKey, { html, brand_kit_id: kitId });
    expect(pdfText(file.bytes)).toContain('Brand face DejaVu Serif');
    const fonts = pdfFonts(file.bytes);
    // the uploaded font (DejaVu Serif Bold) is the only font: a fallback would be a regular sans
    expect(fonts).toHaveLength(1);
    expect(fonts[0]!.name).toMatch(/^([A-Z]{6}\+)?DejaVuSerif-Bold$/);
    expect(fonts[0]!.embedded).toBe(true);
  });
});

/** Kits with one logo, for the asset routes' security suites: the path names the kit's logo. */
const logoOf = new Map<string, string>();
const missingAsset = `asset_${'0'.repeat(32)}`;
const security = {
  arrange: async (account: TestAccount) => {
    const kitId = await newKit(account);
    logoOf.set(kitId, await added(account, kitId, await png(4, 4), 'image/png'));
    return kitId;
  },
  missingId: `kit_${'0'.repeat(32)}`,
  notFoundCode: 'brand_kit_not_found',
  headers: { 'content-type': 'image/png' },
};
const assetPath = (kitId: string) => `/v1/brand-kits/${kitId}/assets/${logoOf.get(kitId) ?? missingAsset}`;
securitySuite('POST /v1/brand-kits/{id}/assets', { method: 'POST', path: (kitId) => `/v1/brand-kits/${kitId}/assets`, ...security });
securitySuite('PUT /v1/brand-kits/{id}/assets/{asset_id}', { method: 'PUT', path: assetPath, ...security });
securitySuite('GET /v1/brand-kits/{id}/assets/{asset_id}', { method: 'GET', path: assetPath, ...security, headers: {} });
