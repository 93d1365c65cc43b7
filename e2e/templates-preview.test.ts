// POST /v1/templates/preview and POST /v1/templates/adapt (spec 2.5, 4.5).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
import { imageInfo, renderOk } from './support/files.ts';
import { securitySuite } from './support/security.ts';

const preview = (key: string, body: unknown) => api('/v1/templates/preview', { method: 'POST', key, body });
const adapt = (key: string, body: unknown) => api('/v1/templates/adapt', { method: 'POST', key, body });

describe('POST /v1/templates/preview', () => {
  it('returns the evaluated HTML, private and uncached, and saves or spends nothing', async () => {
    const account = await newAccount({ plan: 'free', credits: 1 });
    const response = await preview(account.apiKey, { source: '<h1>{{ title }}</h1>', data: { title: '<b>Hi</b>' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ html: '<h1>&lt;b&gt;Hi&lt;/b&gt;</h1>' });
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(await serviceDb().template.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
    const balance = await serviceDb().creditBalance.findFirst({ where: { accountId: account.accountId, bucket: 'trial' } });
    expect(balance?.balance).toBe(1);
  });

  it('validates data against an optional schema with the saved-template rules', async () => {
    const account = await newAccount();
    const schema = { type: 'object', required: ['title'], properties: { title: { type: 'string', maxLength: 3 } } };
    expect((await preview(account.apiKey, { source: '{{ title }}', data: { title: 'ok' }, schema })).body).toEqual({ html: 'ok' });
    const missing = expectError(await preview(account.apiKey, { source: '{{ title }}', data: {}, schema }), 400, 'template_data_invalid');
    expect(missing.details).toEqual([{ field: 'data/title', reason: 'A required value is missing.' }]);
    const long = await preview(account.apiKey, { source: '{{ title }}', data: { title: 'PRIVATE-VALUE' }, schema });
    expect(expectError(long, 400, 'template_data_invalid').details).toEqual([{ field: 'data/title', reason: 'Use a shorter value.' }]);
    expect(long.text).not.toContain('PRIVATE-VALUE');
    expectError(await preview(account.apiKey, { source: 'x', data: {}, schema: { type: 'nope' } }), 400, 'template_schema_invalid');
    expectError(await preview(account.apiKey, { source: 'x', data: {}, schema: { $schema: 'http://json-schema.org/draft-06/schema#' } }), 400, 'template_schema_draft_unsupported');
    expectError(await preview(account.apiKey, { source: 'x', data: {}, schema: { title: 'x'.repeat(140_000) } }), 400, 'template_schema_too_large');
    expectError(await preview(account.apiKey, { source: 'x', data: {}, schema: { type: 'array', uniqueItems: true } }), 400, 'template_schema_complexity');
  });

  it('answers evaluation errors at the source with line and column, and data limits in the data', async () => {
    const account = await newAccount();
    const missing = await preview(account.apiKey, { source: '<p>a</p>\n<p>{{ customer.name }}</p>', data: {} });
    expect(expectError(missing, 400, 'template_missing_data').details?.[0]).toMatchObject({ field: 'source', line: 2 });
    expectError(await preview(account.apiKey, { source: '{% if %}', data: {} }), 400, 'template_syntax_error');
    const big = await preview(account.apiKey, { source: 'x'.repeat(1_048_577), data: {} });
    expect(expectError(big, 400, 'template_source_limit').details).toEqual([{ field: 'source', reason: 'Use a shorter value.' }]);
    const bigData = await preview(account.apiKey, { source: 'x', data: { text: 'y'.repeat(1_048_600) } });
    expect(expectError(bigData, 400, 'template_data_limit').details?.[0]?.field).toBe('data');
  });

  it('refuses bad bodies, unknown brand kits, oversize and non-JSON requests', async () => {
    const account = await newAccount();
    expect(expectError(await preview(account.apiKey, { source: 'x' }), 400, 'invalid_request').details).toContainEqual({ field: 'data', reason: 'missing field' });
    expect(expectError(await preview(account.apiKey, { source: 'x', data: [] }), 400, 'invalid_request').details).toContainEqual({ field: 'data', reason: 'wrong type' });
    expectError(await preview(account.apiKey, { source: 'x', data: {}, brand_kit_id: `kit_${'1'.repeat(32)}` }), 404, 'brand_kit_not_found');
    expectError(await preview(account.apiKey, { source: 'x'.repeat(5 * 1024 * 1024), data: {} }), 413, 'request_too_large');
    const text = await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, rawBody: 'x', headers: { 'content-type': 'text/plain' } });
    expectError(text, 415, 'unsupported_media_type');
  });

  it('has its own rate limit per key (429 with Retry-After), shared with adapt', async () => {
    const account = await newAccount();
    const answers = await Promise.all(Array.from({ length: 64 }, () => preview(account.apiKey, { source: 'x', data: {} })));
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(20);
    const error = expectError(limited[0]!, 429, 'rate_limited');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(error.retry?.retry_after_seconds).toBeGreaterThanOrEqual(1);
    // another key of the same account has its own bucket
    const second = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'second' } });
    expect((await preview(second.body.secret, { source: 'x', data: {} })).status).toBe(200);
    // preview and adapt draw on one bucket: twenty of each at once would all pass with a bucket
    // of twenty each, so refusals show the bucket is shared
    const mixed = await Promise.all([
      ...Array.from({ length: 20 }, () => preview(second.body.secret, { source: 'x', data: {} })),
      ...Array.from({ length: 20 }, () => adapt(second.body.secret, { source: 'x', sizes: [{ width: 400, height: 400 }] })),
    ]);
    expect(mixed.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
  });
});

const canvasSource = `<!DOCTYPE html><html><head><meta name="svc-canvas" content="1080x1080">
<style>body { margin: 0 } .page { position: relative; width: 1080px; height: 1080px; background: #ffffff; overflow: hidden }</style></head>
<body><div class="page" data-svc-page="cover">
<div style="position: absolute; left: 0px; top: 0px; width: 1080px; height: 120px; background: #00ff00"></div>
<div style="position: absolute; left: 40px; top: 200px; width: 200px; height: 200px; background: #ff0000"></div>
<div style="position: absolute; left: 840px; top: 840px; width: 200px; height: 200px; background: #0000ff"></div>
<h1 style="position: absolute; left: 290px; top: 400px; width: 500px; height: 200px; margin: 0; font-size: 64px">{{ title }}</h1>
</div></body></html>`;

async function pixel(bytes: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const offset = (Math.round(y) * info.width + Math.round(x)) * info.channels;
  return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
}

describe('POST /v1/templates/adapt', () => {
  it('moves and rescales positioned elements to each size; adapted sources render at that size', async () => {
    const account = await newAccount();
    const sizes = [
      { width: 1920, height: 1080 },
      { width: 1080, height: 1920 },
      { width: 400, height: 300 },
    ];
    const response = await adapt(account.apiKey, { source: canvasSource, sizes });
    expect(response.status).toBe(200);
    expect(response.body.sizes).toHaveLength(3);
    for (const [index, entry] of response.body.sizes.entries()) {
      const { width, height } = sizes[index]!;
      expect(entry).toMatchObject({ width, height });
      expect(entry.error).toBeUndefined();
      expect(entry.source).toContain(`content="${width}x${height}"`);
      const { file } = await renderOk('image', account.apiKey, { html: entry.source, data: { title: 'Launch' }, image: { format: 'png', width, height } });
      expect(await imageInfo(file.bytes)).toMatchObject({ width, height });
      const scale = Math.min(width / 1080, height / 1080);
      // the banner spans the full new width; the red box keeps its start margins, the blue box its end margins
      expect(await pixel(file.bytes, width - 5, 5)).toEqual([0, 255, 0]);
      expect(await pixel(file.bytes, 40 * scale + 10 * scale, 200 * scale + 10 * scale)).toEqual([255, 0, 0]);
      expect(await pixel(file.bytes, width - 40 * scale - 10 * scale, height - 40 * scale - 10 * scale)).toEqual([0, 0, 255]);
    }
    // text stays legible: no font below 12px even on the small canvas
    expect(response.body.sizes[2].source).toMatch(/font-size: (1[2-9]|[2-9]\d)(\.\d+)?px/);
    // deterministic
    expect((await adapt(account.apiKey, { source: canvasSource, sizes })).body).toEqual(response.body);
  });

  it('answers resize_source_unsupported for non-canvas sources and resize_no_layout without positioned elements', async () => {
    const account = await newAccount();
    const plain = await adapt(account.apiKey, { source: '<p>{{ x }}</p>', sizes: [{ width: 400, height: 400 }, { width: 800, height: 400 }] });
    expect(plain.body.sizes).toEqual([
      { width: 400, height: 400, error: { code: 'resize_source_unsupported' } },
      { width: 800, height: 400, error: { code: 'resize_source_unsupported' } },
    ]);
    const flat = await adapt(account.apiKey, { source: '<meta name="svc-canvas" content="800x600"><div data-svc-page="a">text</div>', sizes: [{ width: 400, height: 400 }] });
    expect(flat.body.sizes).toEqual([{ width: 400, height: 400, error: { code: 'resize_no_layout' } }]);
  });

  it('answers 504 resize_timeout for sources too large to adapt in time, and 400 for bad sizes', async () => {
    const account = await newAccount();
    const huge = `<meta name="svc-canvas" content="800x600">${'<i></i>'.repeat(20_001)}`;
    expectError(await adapt(account.apiKey, { source: huge, sizes: [{ width: 400, height: 400 }] }), 504, 'resize_timeout');
    const cases: [unknown, string][] = [
      [{ source: canvasSource, sizes: Array.from({ length: 21 }, () => ({ width: 400, height: 400 })) }, 'sizes'],
      [{ source: canvasSource, sizes: [{ width: 319, height: 400 }] }, 'sizes.0.width'],
      [{ source: canvasSource, sizes: [{ width: 400, height: 4321 }] }, 'sizes.0.height'],
      [{ source: canvasSource }, 'sizes'],
    ];
    for (const [body, field] of cases) {
      expect(expectError(await adapt(account.apiKey, body), 400, 'invalid_request').details?.[0]?.field).toBe(field);
    }
  });
});

securitySuite('POST /v1/templates/preview', { method: 'POST', path: () => '/v1/templates/preview', body: { source: 'x', data: {} } });
securitySuite('POST /v1/templates/adapt', { method: 'POST', path: () => '/v1/templates/adapt', body: { source: 'x', sizes: [{ width: 400, height: 400 }] } });
