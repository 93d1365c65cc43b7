// Saved template versions and saved sizes (the contract's saved template routes and versioning rule).
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, type TestAccount } from './support/api.ts';
import { securitySuite } from './support/security.ts';

const missingId = `tpl_${'0'.repeat(32)}`;
const canvas = (width: number, height: number, body = '<div data-svc-page="p">x</div>') =>
  `<meta name="svc-canvas" content="${width}x${height}">${body}`;

async function create(key: string, body: Record<string, unknown> = {}) {
  const response = await api('/v1/templates', { method: 'POST', key, body: { source: '<p>v1</p>', ...body } });
  if (response.status !== 201) throw new Error(`template not created: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body;
}
const arrange = async (account: TestAccount) => (await create(account.apiKey)).id as string;
const size = (overrides: Record<string, unknown> = {}) => ({
  id: 'square',
  name: 'Square',
  width: 1080,
  height: 1080,
  status: 'edited',
  source: canvas(1080, 1080),
  ...overrides,
});

describe('template versions', () => {
  it('publishes numbered immutable versions; the template shows the latest', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey, { schema: { type: 'object' } });
    const path = `/v1/templates/${template.id}/versions`;
    const v2 = await api(path, { method: 'POST', key: account.apiKey, body: { source: '<p>v2</p>', sizes: [size()] } });
    expect(v2.status).toBe(201);
    expect(Object.keys(v2.body).sort()).toEqual(['created_at', 'schema', 'sizes', 'source', 'version']);
    expect(v2.body).toMatchObject({ version: 2, source: '<p>v2</p>', schema: null, sizes: [size()] });
    const v3 = await api(path, { method: 'POST', key: account.apiKey, body: { source: '<p>v3</p>', schema: true } });
    expect(v3.body.version).toBe(3);

    const detail = (await api(`/v1/templates/${template.id}`, { key: account.apiKey })).body;
    expect(detail).toMatchObject({ latest_version: 3, source: '<p>v3</p>', schema: true, sizes: [] });
    const v1 = await api(`${path}/1`, { key: account.apiKey });
    expect(v1.body).toMatchObject({ version: 1, source: '<p>v1</p>', schema: { type: 'object' }, sizes: [] });
    expect((await api(`${path}/2`, { key: account.apiKey })).body).toEqual(v2.body);

    const list = await api(path, { key: account.apiKey });
    expect(list.body.items.map((item: { version: number }) => item.version)).toEqual([3, 2, 1]);
    expect(Object.keys(list.body.items[0]).sort()).toEqual(['created_at', 'version']);
    const page1 = await api(`${path}?limit=2`, { key: account.apiKey });
    expect(page1.body.items.map((item: { version: number }) => item.version)).toEqual([3, 2]);
    expect(page1.body.next_cursor.length).toBeLessThanOrEqual(32);
    const page2 = await api(`${path}?limit=2&cursor=${page1.body.next_cursor}`, { key: account.apiKey });
    expect(page2.body).toEqual({ items: [{ version: 1, created_at: v1.body.created_at }], next_cursor: null });
  });

  it('answers 404 for unknown or malformed versions and 400 for bad pages', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey);
    for (const version of ['2', '0', 'abc', '1.5', '99999999999']) {
      expectError(await api(`/v1/templates/${template.id}/versions/${version}`, { key: account.apiKey }), 404, 'not_found');
    }
    expectError(await api(`/v1/templates/${template.id}/versions?cursor=zzz`, { key: account.apiKey }), 400, 'invalid_cursor');
    expectError(await api(`/v1/templates/${template.id}/versions?cursor=${'v'.repeat(33)}`, { key: account.apiKey }), 400, 'invalid_request');
    expectError(await api(`/v1/templates/${template.id}/versions?limit=0`, { key: account.apiKey }), 400, 'invalid_request');
  });

  it('refuses versions for archived templates with 404, and accepts them again after a restore', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey);
    await api(`/v1/templates/${template.id}`, { method: 'DELETE', key: account.apiKey });
    const refused = await api(`/v1/templates/${template.id}/versions`, { method: 'POST', key: account.apiKey, body: { source: '<p>x</p>' } });
    expectError(refused, 404, 'not_found');
    expect((await api(`/v1/templates/${template.id}/versions`, { key: account.apiKey })).status).toBe(200);
    await api(`/v1/templates/${template.id}`, { method: 'PATCH', key: account.apiKey, body: { archived_at: null } });
    expect((await api(`/v1/templates/${template.id}/versions`, { method: 'POST', key: account.apiKey, body: { source: '<p>x</p>' } })).status).toBe(201);
  });

  it('numbers concurrent publications one after another', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        api(`/v1/templates/${template.id}/versions`, { method: 'POST', key: account.apiKey, body: { source: `<p>${index}</p>` } }),
      ),
    );
    expect(results.map((result) => result.body.version).sort()).toEqual([2, 3, 4, 5, 6]);
  });

  it('validates the body like a new template and refuses unknown fields', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey);
    const post = (body: unknown) => api(`/v1/templates/${template.id}/versions`, { method: 'POST', key: account.apiKey, body });
    expect(expectError(await post({ source: '<p>x</p>', name: 'n' }), 400, 'invalid_request').details).toContainEqual({ field: 'name', reason: 'unknown field' });
    expectError(await post({ source: 'x'.repeat(1_048_577) }), 400, 'template_source_limit');
    expectError(await post({ source: '{{ x' }), 400, 'template_syntax_error');
    expectError(await post({ source: 'x', schema: { type: 'nonsense' } }), 400, 'template_schema_invalid');
  });
});

describe('saved sizes', () => {
  it('stores sizes with their overrides and answers each size rule with its code', async () => {
    const account = await newAccount();
    const stored = await create(account.apiKey, { sizes: [size({ data_overrides: { title: 'Square' } }), size({ id: 'story', name: 'Story', width: 1080, height: 1920, status: 'auto', source: canvas(1080, 1920) })] });
    expect(stored.sizes).toHaveLength(2);
    expect(stored.sizes[0]).toEqual(size({ data_overrides: { title: 'Square' } }));

    const cases: [unknown[], string, string][] = [
      [Array.from({ length: 21 }, (_, index) => size({ id: `s${index}` })), 'template_sizes_too_many', 'sizes'],
      [[size({ id: 'original' })], 'template_size_invalid_id', 'sizes.0.id'],
      [[size({ id: 'Square' })], 'template_size_invalid_id', 'sizes.0.id'],
      [[size({ id: `a${'b'.repeat(40)}` })], 'template_size_invalid_id', 'sizes.0.id'],
      [[size(), size()], 'template_size_duplicate_id', 'sizes.1.id'],
      [[size({ name: '  ' })], 'template_size_invalid_name', 'sizes.0.name'],
      [[size({ name: 'n'.repeat(121) })], 'template_size_invalid_name', 'sizes.0.name'],
      [[size({ width: 319 })], 'template_size_invalid_dimensions', 'sizes.0.width'],
      [[size({ height: 4321 })], 'template_size_invalid_dimensions', 'sizes.0.height'],
      [[size({ width: 1080.5 })], 'template_size_invalid_dimensions', 'sizes.0.width'],
      [[size({ source: canvas(1080, 1081) })], 'template_size_canvas_mismatch', 'sizes.0.source'],
      [[size({ source: '<div>no canvas</div>' })], 'template_size_canvas_mismatch', 'sizes.0.source'],
      [[size({ data_overrides: { text: 'x'.repeat(70_000) } })], 'template_size_data_overrides_too_large', 'sizes.0.data_overrides'],
      [Array.from({ length: 5 }, (_, index) => size({ id: `s${index}`, source: canvas(1080, 1080, 'x'.repeat(900_000)) })), 'template_sizes_too_large', 'sizes'],
    ];
    for (const [sizes, code, field] of cases) {
      const response = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<p>x</p>', sizes } });
      expect(expectError(response, 400, code).details?.[0]?.field, code).toBe(field);
    }
    const wrongStatus = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: 'x', sizes: [size({ status: 'draft' })] } });
    expect(expectError(wrongStatus, 400, 'invalid_request').details).toContainEqual({ field: 'sizes.0.status', reason: 'invalid value' });
  });
});

securitySuite('POST /v1/templates/{template_id}/versions', {
  method: 'POST',
  path: (id) => `/v1/templates/${id}/versions`,
  arrange,
  missingId,
  body: { source: '<p>x</p>' },
});
securitySuite('GET /v1/templates/{template_id}/versions', { method: 'GET', path: (id) => `/v1/templates/${id}/versions`, arrange, missingId });
securitySuite('GET /v1/templates/{template_id}/versions/{version}', {
  method: 'GET',
  path: (id) => `/v1/templates/${id}/versions/1`,
  arrange,
  missingId,
});
