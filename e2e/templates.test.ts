// Saved templates: create, list, read, rename, archive and restore (the contract's saved template resource, archive lifecycle and routes).
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, type TestAccount } from './support/api.ts';
import { securitySuite } from './support/security.ts';

const missingId = `tpl_${'0'.repeat(32)}`;
const source = '<h1>Hello {{ name }}</h1>';

async function create(key: string, body: Record<string, unknown> = {}) {
  const response = await api('/v1/templates', { method: 'POST', key, body: { source, ...body } });
  if (response.status !== 201) throw new Error(`template not created: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body;
}
const arrange = async (account: TestAccount) => (await create(account.apiKey)).id as string;

describe('POST /v1/templates', () => {
  it('saves version 1 with a trimmed name and tags, and answers the detail', async () => {
    const account = await newAccount();
    const response = await api('/v1/templates', {
      method: 'POST',
      key: account.apiKey,
      body: { source, name: '  Invoice  ', tags: [' Billing ', 'billing', 'Q1'], schema: { type: 'object' } },
    });
    expect(response.status).toBe(201);
    const detail = response.body;
    expect(Object.keys(detail).sort()).toEqual(
      ['archive_history', 'archived_at', 'created_at', 'id', 'latest_version', 'name', 'schema', 'sizes', 'source', 'tags'].sort(),
    );
    expect(detail.id).toMatch(/^tpl_[0-9a-f]{32}$/);
    expect(detail).toMatchObject({ name: 'Invoice', tags: ['Billing', 'billing', 'Q1'], latest_version: 1, archived_at: null, archive_history: [], source, schema: { type: 'object' }, sizes: [] });
    const read = await api(`/v1/templates/${detail.id}`, { key: account.apiKey });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(detail);
  });

  it('treats a blank or null name as no name and an omitted schema as null', async () => {
    const account = await newAccount();
    expect(await create(account.apiKey, { name: '   ' })).toMatchObject({ name: null, schema: null, tags: [] });
    expect(await create(account.apiKey, { name: null, input_mode: 'html' })).toMatchObject({ name: null });
  });

  it('accepts a canvas template in blank mode and refuses one without a canvas', async () => {
    const account = await newAccount();
    const canvas = '<meta name="svc-canvas" content="1080x1080"><div data-svc-page="cover">x</div>';
    expect((await create(account.apiKey, { source: canvas, input_mode: 'blank' })).source).toBe(canvas);
    for (const bad of ['<div>no canvas</div>', '<meta name="svc-canvas" content="100x100">']) {
      const refused = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: bad, input_mode: 'blank' } });
      expect(expectError(refused, 400, 'invalid_request').details).toEqual([{ field: 'source', reason: 'invalid value' }]);
    }
  });

  it('refuses invalid fields with details', async () => {
    const account = await newAccount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ source: '' }, 'source', 'invalid value'],
      [{ source: undefined }, 'source', 'missing field'],
      [{ name: 'n'.repeat(121) }, 'name', 'invalid value'],
      [{ name: 5 }, 'name', 'wrong type'],
      [{ tags: Array.from({ length: 21 }, (_, index) => `t${index}`) }, 'tags', 'invalid value'],
      [{ tags: ['a', ' a '] }, 'tags.1', 'invalid value'],
      [{ tags: ['t'.repeat(41)] }, 'tags.0', 'invalid value'],
      [{ tags: ['  '] }, 'tags.0', 'invalid value'],
      [{ input_mode: 'canvas' }, 'input_mode', 'invalid value'],
      [{ schema: 'object' }, 'schema', 'invalid value'],
      [{ sizes: [{ id: 'a' }] }, 'sizes.0.name', 'missing field'],
      [{ colour: 'red' }, 'colour', 'unknown field'],
    ];
    for (const [body, field, reason] of cases) {
      const response = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source, ...body } });
      expect(expectError(response, 400, 'invalid_request').details, JSON.stringify(body).slice(0, 100)).toContainEqual({ field, reason });
    }
  });

  it('answers template_source_limit over 1,048,576 bytes and template_syntax_error with a position', async () => {
    const account = await newAccount();
    const big = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: 'é'.repeat(524_289) } });
    expect(expectError(big, 400, 'template_source_limit').details).toEqual([{ field: 'source', reason: 'Use a shorter value.' }]);
    const syntax = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<p>ok</p>\n{% for x in items %}' } });
    const detail = expectError(syntax, 400, 'template_syntax_error').details?.[0];
    expect(detail).toMatchObject({ field: 'source', reason: 'Use the required format.' });
    expect(detail).toHaveProperty('line');
  });

  it('answers 413 over the body limit and 415 for non-JSON', async () => {
    const account = await newAccount();
    const huge = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: 'x'.repeat(9 * 1024 * 1024) } });
    expectError(huge, 413, 'request_too_large');
    const form = await api('/v1/templates', { method: 'POST', key: account.apiKey, rawBody: 'source=x', headers: { 'content-type': 'text/plain' } });
    expectError(form, 415, 'unsupported_media_type');
  });
});

describe('GET /v1/templates', () => {
  it('lists newest first without source and schema, filters by status, name and tag, and pages', async () => {
    const account = await newAccount();
    const first = await create(account.apiKey, { name: 'Monthly Invoice', tags: ['billing', 'Zeta'] });
    const second = await create(account.apiKey, { name: 'Receipt', tags: ['billing'] });
    const third = await create(account.apiKey, { name: 'Poster', tags: ['alpha'] });
    await api(`/v1/templates/${second.id}`, { method: 'DELETE', key: account.apiKey });

    const all = await api('/v1/templates', { key: account.apiKey });
    expect(all.status).toBe(200);
    expect(all.body.items.map((item: { id: string }) => item.id)).toEqual([third.id, second.id, first.id]);
    expect(Object.keys(all.body.items[0]).sort()).toEqual(['archived_at', 'created_at', 'id', 'latest_version', 'name', 'tags']);
    expect(all.body.tag_options).toEqual(['Zeta', 'alpha', 'billing']);
    expect(all.body.next_cursor).toBeNull();

    const ids = async (query: string) => (await api(`/v1/templates?${query}`, { key: account.apiKey })).body.items.map((item: { id: string }) => item.id);
    expect(await ids('status=active')).toEqual([third.id, first.id]);
    expect(await ids('status=archived')).toEqual([second.id]);
    expect(await ids('q=INVOICE')).toEqual([first.id]);
    expect(await ids('tag=billing')).toEqual([second.id, first.id]);
    expect(await ids('tag=Billing')).toEqual([]);

    const page1 = await api('/v1/templates?limit=2', { key: account.apiKey });
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await api(`/v1/templates?limit=2&cursor=${page1.body.next_cursor}`, { key: account.apiKey });
    expect(page2.body.items.map((item: { id: string }) => item.id)).toEqual([first.id]);
    expect(page2.body.next_cursor).toBeNull();
  });

  it('refuses bad query parameters', async () => {
    const account = await newAccount();
    expectError(await api('/v1/templates?cursor=bm9wZQ', { key: account.apiKey }), 400, 'invalid_cursor');
    for (const query of ['limit=0', 'limit=101', 'status=deleted', `q=${'x'.repeat(121)}`, 'q=a%0Ab', `tag=${'t'.repeat(41)}`, 'colour=red']) {
      expectError(await api(`/v1/templates?${query}`, { key: account.apiKey }), 400, 'invalid_request');
    }
  });
});

describe('PATCH and DELETE /v1/templates/{template_id}', () => {
  it('renames, retags and clears, keeping omitted fields', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey, { name: 'Old', tags: ['a'] });
    const path = `/v1/templates/${template.id}`;
    const renamed = await api(path, { method: 'PATCH', key: account.apiKey, body: { name: ' New ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...renamed.body, name: 'New', tags: ['a'] });
    expect(Object.keys(renamed.body).sort()).toEqual(['archived_at', 'created_at', 'id', 'latest_version', 'name', 'tags']);
    expect((await api(path, { method: 'PATCH', key: account.apiKey, body: { tags: [' b ', 'c'] } })).body).toMatchObject({ name: 'New', tags: ['b', 'c'] });
    expect((await api(path, { method: 'PATCH', key: account.apiKey, body: { name: null, tags: [] } })).body).toMatchObject({ name: null, tags: [] });
    expect((await api(path, { method: 'PATCH', key: account.apiKey, body: {} })).status).toBe(200);
  });

  it('archives idempotently, stays readable, and restores with archive history', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey);
    const path = `/v1/templates/${template.id}`;
    const archived = await api(path, { method: 'DELETE', key: account.apiKey });
    expect(archived.status).toBe(200);
    expect(archived.body.archived_at).toEqual(expect.any(String));
    const again = await api(path, { method: 'DELETE', key: account.apiKey });
    expect(again.body).toEqual(archived.body);
    const read = await api(path, { key: account.apiKey });
    expect(read.body.archive_history).toEqual([{ archived_at: archived.body.archived_at, restored_at: null }]);

    const restored = await api(path, { method: 'PATCH', key: account.apiKey, body: { archived_at: null } });
    expect(restored.body.archived_at).toBeNull();
    const history = (await api(path, { key: account.apiKey })).body.archive_history;
    expect(history).toHaveLength(1);
    expect(history[0].restored_at).toEqual(expect.any(String));

    await api(path, { method: 'DELETE', key: account.apiKey });
    expect((await api(path, { key: account.apiKey })).body.archive_history).toHaveLength(2);
  });

  it('refuses archived_at other than null, bad names and unknown fields', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey);
    const path = `/v1/templates/${template.id}`;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ archived_at: '2026-01-01T00:00:00Z' }, 'archived_at', 'invalid value'],
      [{ name: 'x'.repeat(121) }, 'name', 'invalid value'],
      [{ tags: 'a' }, 'tags', 'wrong type'],
      [{ source: 'x' }, 'source', 'unknown field'],
    ];
    for (const [body, field, reason] of cases) {
      const error = expectError(await api(path, { method: 'PATCH', key: account.apiKey, body }), 400, 'invalid_request');
      expect(error.details).toContainEqual({ field, reason });
    }
    expectError(await api(path, { method: 'PATCH', key: account.apiKey, body: { name: 'x'.repeat(70 * 1024) } }), 413, 'request_too_large');
  });
});

securitySuite('POST /v1/templates', { method: 'POST', path: () => '/v1/templates', body: { source } });
securitySuite('GET /v1/templates', { method: 'GET', path: () => '/v1/templates' });
securitySuite('GET /v1/templates/{template_id}', { method: 'GET', path: (id) => `/v1/templates/${id}`, arrange, missingId });
securitySuite('PATCH /v1/templates/{template_id}', { method: 'PATCH', path: (id) => `/v1/templates/${id}`, arrange, missingId, body: { name: 'x' } });
securitySuite('DELETE /v1/templates/{template_id}', { method: 'DELETE', path: (id) => `/v1/templates/${id}`, arrange, missingId });
