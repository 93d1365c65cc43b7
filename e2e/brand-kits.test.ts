// Brand kits: create, list, read, change, archive and restore; plan limits (the contract's brand kit resource, archive lifecycle, routes and limits).
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, type TestAccount } from './support/api.ts';
import { svc } from './support/cli.ts';
import { securitySuite } from './support/security.ts';

const missingId = `kit_${'0'.repeat(32)}`;
const detailKeys = ['archive_history', 'archived_at', 'assets', 'colours', 'created_at', 'id', 'name', 'tone_guidance', 'updated_at'];

async function create(key: string, body: Record<string, unknown> = {}) {
  const response = await api('/v1/brand-kits', { method: 'POST', key, body: { name: 'Acme', ...body } });
  if (response.status !== 201) throw new Error(`kit not created: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body;
}
const arrange = async (account: TestAccount) => (await create(account.apiKey)).id as string;
const patch = (key: string, id: string, body: unknown) => api(`/v1/brand-kits/${id}`, { method: 'PATCH', key, body });

describe('POST /v1/brand-kits', () => {
  it('creates a kit with lowercase colours in order and answers the detail', async () => {
    const account = await newAccount();
    const response = await api('/v1/brand-kits', {
      method: 'POST',
      key: account.apiKey,
      body: { name: '  Acme Rockets ', colours: ['#FF0000', '#00aa11', '#0000Ff'], tone_guidance: 'Friendly,\nshort sentences.' },
    });
    expect(response.status).toBe(201);
    const kit = response.body;
    expect(Object.keys(kit).sort()).toEqual(detailKeys);
    expect(kit.id).toMatch(/^kit_[0-9a-f]{32}$/);
    expect(kit).toMatchObject({
      name: 'Acme Rockets',
      colours: ['#ff0000', '#00aa11', '#0000ff'],
      tone_guidance: 'Friendly,\nshort sentences.',
      archived_at: null,
      assets: [],
      archive_history: [],
    });
    expect(kit.updated_at).toBe(kit.created_at);
    expect((await api(`/v1/brand-kits/${kit.id}`, { key: account.apiKey })).body).toEqual(kit);
  });

  it('defaults colours to none and tone guidance to null', async () => {
    const account = await newAccount();
    expect(await create(account.apiKey, { tone_guidance: null })).toMatchObject({ colours: [], tone_guidance: null });
  });

  it('answers brand_kit_name_invalid for a blank, long or control-character name', async () => {
    const account = await newAccount();
    for (const name of ['', '   ', 'n'.repeat(101), 'a\u0007b']) {
      const response = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name } });
      expect(expectError(response, 422, 'brand_kit_name_invalid').details).toEqual([{ field: 'name', reason: 'invalid value' }]);
    }
    expect((await create(account.apiKey, { name: 'é'.repeat(100) })).name).toBe('é'.repeat(100));
  });

  it('answers brand_kit_colours_invalid for bad, duplicate (after lowercasing) and too many colours', async () => {
    const account = await newAccount();
    const cases: [unknown[], string][] = [
      [['#fff'], 'colours.0'],
      [['#00ff00', 'red'], 'colours.1'],
      [['#12345g'], 'colours.0'],
      [['#AbCdEf', '#abcdef'], 'colours.1'],
      [Array.from({ length: 17 }, (_, index) => `#0000${index.toString(16).padStart(2, '0')}`), 'colours'],
    ];
    for (const [colours, field] of cases) {
      const response = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'x', colours } });
      expect(expectError(response, 422, 'brand_kit_colours_invalid').details, JSON.stringify(colours)).toEqual([{ field, reason: 'invalid value' }]);
    }
    const sixteen = Array.from({ length: 16 }, (_, index) => `#0000${index.toString(16).padStart(2, '0')}`);
    expect((await create(account.apiKey, { colours: sixteen })).colours).toEqual(sixteen);
  });

  it('answers brand_kit_tone_invalid for blank or over 500 characters', async () => {
    const account = await newAccount();
    for (const tone_guidance of ['', ' \n ', 't'.repeat(501)]) {
      const response = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'x', tone_guidance } });
      expect(expectError(response, 422, 'brand_kit_tone_invalid').details).toEqual([{ field: 'tone_guidance', reason: 'invalid value' }]);
    }
    expect((await create(account.apiKey, { tone_guidance: '😀'.repeat(500) })).tone_guidance).toBe('😀'.repeat(500));
  });

  it('answers invalid_request for wrong types and unknown fields, 413 and 415', async () => {
    const account = await newAccount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'name', 'missing field'],
      [{ name: 5 }, 'name', 'wrong type'],
      [{ name: 'x', colours: '#ffffff' }, 'colours', 'wrong type'],
      [{ name: 'x', colours: [1] }, 'colours.0', 'wrong type'],
      [{ name: 'x', tone_guidance: 3 }, 'tone_guidance', 'wrong type'],
      [{ name: 'x', logo: 'y' }, 'logo', 'unknown field'],
    ];
    for (const [body, field, reason] of cases) {
      const response = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body });
      expect(expectError(response, 400, 'invalid_request').details, JSON.stringify(body)).toContainEqual({ field, reason });
    }
    expectError(await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'x', tone_guidance: 'x'.repeat(20_000) } }), 413, 'request_too_large');
    expectError(await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, rawBody: 'name=x', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
  });
});

describe('brand kit plan limits', () => {
  it('answers brand_kit_limit with plan_limit and a message without the number; archived kits count', async () => {
    const account = await newAccount({ plan: 'starter' });
    const kit = await create(account.apiKey);
    expect((await api(`/v1/brand-kits/${kit.id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(204);
    const refused = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Second' } });
    const error = expectError(refused, 409, 'brand_kit_limit') as { message: string; plan_limit?: unknown };
    expect(error.plan_limit).toEqual({ plan: 'starter', limit: 1 });
    expect(error.message).not.toMatch(/\d/);
    expect((await api('/v1/brand-kits', { key: account.apiKey })).body.items).toHaveLength(1);
  });

  it('admits exactly one of five concurrent creates on a free account', async () => {
    const account = await newAccount({ plan: 'free' });
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, index) => api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: `Kit ${index}` } })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.status !== 201)) expectError(answer, 409, 'brand_kit_limit');
    expect((await api('/v1/brand-kits', { key: account.apiKey })).body.items).toHaveLength(1);
  });

  it('lets an account above its limit after a plan change keep, change, archive and restore its kits', async () => {
    const account = await newAccount({ plan: 'growth' });
    const kits: any[] = [];
    for (let index = 0; index < 5; index += 1) kits.push(await create(account.apiKey, { name: `Kit ${index}` }));
    expectError(await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Sixth' } }), 409, 'brand_kit_limit');

    const moved = await svc(['account', 'plan', account.accountId, '--plan', 'free', '--json']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout.trim().split('\n').at(-1)!)).toEqual({ account_id: account.accountId, plan: 'free' });

    expect((await api('/v1/brand-kits', { key: account.apiKey })).body.items).toHaveLength(5);
    const renamed = await patch(account.apiKey, kits[0].id, { name: 'Renamed', colours: ['#123456'] });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', colours: ['#123456'] });
    expect((await api(`/v1/brand-kits/${kits[1].id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(204);
    expect((await patch(account.apiKey, kits[1].id, { archived_at: null })).body.archived_at).toBeNull();
    const refused = expectError(await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Sixth' } }), 409, 'brand_kit_limit') as {
      plan_limit?: unknown;
    };
    expect(refused.plan_limit).toEqual({ plan: 'free', limit: 1 });
  }, 120_000);
});

describe('GET /v1/brand-kits', () => {
  it('lists newest first with keyset pages, filters by status and omits asset metadata', async () => {
    const account = await newAccount();
    const made: any[] = [];
    for (let index = 0; index < 5; index += 1) made.push(await create(account.apiKey, { name: `Kit ${index}` }));
    await api(`/v1/brand-kits/${made[1].id}`, { method: 'DELETE', key: account.apiKey });
    const newestFirst = made.map((kit) => kit.id).reverse();

    const first = await api('/v1/brand-kits?limit=2', { key: account.apiKey });
    expect(first.status).toBe(200);
    expect(first.body.items.map((kit: { id: string }) => kit.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.items[0]).not.toHaveProperty('assets');
    expect(first.body.items[0]).not.toHaveProperty('archive_history');
    expect(first.body.next_cursor.length).toBeLessThanOrEqual(128);
    const second = await api(`/v1/brand-kits?limit=2&cursor=${first.body.next_cursor}`, { key: account.apiKey });
    const third = await api(`/v1/brand-kits?limit=2&cursor=${second.body.next_cursor}`, { key: account.apiKey });
    expect([...second.body.items, ...third.body.items].map((kit: { id: string }) => kit.id)).toEqual(newestFirst.slice(2));
    expect(third.body.next_cursor).toBeNull();

    const active = await api('/v1/brand-kits?status=active', { key: account.apiKey });
    expect(active.body.items.map((kit: { id: string }) => kit.id)).toEqual(newestFirst.filter((id) => id !== made[1].id));
    const archived = await api('/v1/brand-kits?status=archived', { key: account.apiKey });
    expect(archived.body.items.map((kit: { id: string }) => kit.id)).toEqual([made[1].id]);
    expect((await api('/v1/brand-kits', { key: account.apiKey })).body.items).toHaveLength(5);

    const stranger = await newAccount();
    expect((await api('/v1/brand-kits', { key: stranger.apiKey })).body).toEqual({ items: [], next_cursor: null });
  });

  it('answers invalid_cursor and invalid_request for bad queries', async () => {
    const account = await newAccount();
    for (const cursor of ['nonsense!', Buffer.from('123.tpl_x').toString('base64url')]) {
      expectError(await api(`/v1/brand-kits?cursor=${encodeURIComponent(cursor)}`, { key: account.apiKey }), 400, 'invalid_cursor');
    }
    for (const [query, field] of [
      ['status=deleted', 'status'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      [`cursor=${'a'.repeat(129)}`, 'cursor'],
      ['colour=red', 'colour'],
    ]) {
      expect(expectError(await api(`/v1/brand-kits?${query}`, { key: account.apiKey }), 400, 'invalid_request').details?.[0]?.field).toBe(field);
    }
  });
});

describe('PATCH and DELETE /v1/brand-kits/{id}', () => {
  it('changes only the given fields; null tone guidance clears it', async () => {
    const account = await newAccount();
    const kit = await create(account.apiKey, { colours: ['#111111'], tone_guidance: 'Warm' });
    const renamed = await patch(account.apiKey, kit.id, { name: 'New name' });
    expect(renamed.status).toBe(200);
    expect(Object.keys(renamed.body).sort()).toEqual(detailKeys);
    expect(renamed.body).toMatchObject({ name: 'New name', colours: ['#111111'], tone_guidance: 'Warm' });
    expect(Date.parse(renamed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(kit.updated_at));
    const cleared = await patch(account.apiKey, kit.id, { tone_guidance: null, colours: ['#ABCDEF', '#000000'] });
    expect(cleared.body).toMatchObject({ name: 'New name', colours: ['#abcdef', '#000000'], tone_guidance: null });
    expectError(await patch(account.apiKey, kit.id, { colours: ['#abcdef', '#ABCDEF'] }), 422, 'brand_kit_colours_invalid');
    expectError(await patch(account.apiKey, kit.id, { name: ' ' }), 422, 'brand_kit_name_invalid');
    expectError(await patch(account.apiKey, kit.id, { tone_guidance: '' }), 422, 'brand_kit_tone_invalid');
    expect(expectError(await patch(account.apiKey, kit.id, { archived_at: '2024-01-01T00:00:00Z' }), 400, 'invalid_request').details).toContainEqual({
      field: 'archived_at',
      reason: 'invalid value',
    });
  });

  it('answers brand_kit_patch_empty for an empty body', async () => {
    const account = await newAccount();
    const kit = await create(account.apiKey);
    expectError(await patch(account.apiKey, kit.id, {}), 400, 'brand_kit_patch_empty');
  });

  it('archives idempotently with 204, refuses changes while archived, and restores with history', async () => {
    const account = await newAccount();
    const kit = await create(account.apiKey, { colours: ['#222222'] });
    const first = await api(`/v1/brand-kits/${kit.id}`, { method: 'DELETE', key: account.apiKey });
    expect(first.status).toBe(204);
    expect(first.text).toBe('');
    const archivedAt = (await api(`/v1/brand-kits/${kit.id}`, { key: account.apiKey })).body.archived_at;
    expect(archivedAt).not.toBeNull();
    const again = await api(`/v1/brand-kits/${kit.id}`, { method: 'DELETE', key: account.apiKey });
    expect(again.status).toBe(204);
    const read = (await api(`/v1/brand-kits/${kit.id}`, { key: account.apiKey })).body;
    expect(read).toMatchObject({ archived_at: archivedAt, archive_history: [{ archived_at: archivedAt, restored_at: null }] });

    expectError(await patch(account.apiKey, kit.id, { name: 'Changed' }), 409, 'brand_kit_conflict');
    expect((await api(`/v1/brand-kits/${kit.id}`, { key: account.apiKey })).body.name).toBe('Acme');

    const restored = await patch(account.apiKey, kit.id, { archived_at: null, name: 'Back' });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ archived_at: null, name: 'Back', colours: ['#222222'] });
    expect(restored.body.archive_history).toHaveLength(1);
    expect(restored.body.archive_history[0].archived_at).toBe(archivedAt);
    expect(restored.body.archive_history[0].restored_at).not.toBeNull();
    // restoring an active kit changes nothing
    expect((await patch(account.apiKey, kit.id, { archived_at: null })).body.archive_history).toEqual(restored.body.archive_history);
  });

  it('answers brand_kit_not_found for unknown ids on every route', async () => {
    const account = await newAccount();
    expectError(await api(`/v1/brand-kits/${missingId}`, { key: account.apiKey }), 404, 'brand_kit_not_found');
    expectError(await patch(account.apiKey, missingId, { name: 'x' }), 404, 'brand_kit_not_found');
    expectError(await api(`/v1/brand-kits/${missingId}`, { method: 'DELETE', key: account.apiKey }), 404, 'brand_kit_not_found');
    expectError(await api('/v1/brand-kits/kit_ABC', { key: account.apiKey }), 404, 'brand_kit_not_found');
  });
});

const security = { arrange, missingId, notFoundCode: 'brand_kit_not_found' };
securitySuite('POST /v1/brand-kits', { method: 'POST', path: () => '/v1/brand-kits', body: { name: 'x' } });
securitySuite('GET /v1/brand-kits', { method: 'GET', path: () => '/v1/brand-kits' });
securitySuite('GET /v1/brand-kits/{id}', { method: 'GET', path: (id) => `/v1/brand-kits/${id}`, ...security });
securitySuite('PATCH /v1/brand-kits/{id}', { method: 'PATCH', path: (id) => `/v1/brand-kits/${id}`, body: { name: 'y' }, ...security });
securitySuite('DELETE /v1/brand-kits/{id}', { method: 'DELETE', path: (id) => `/v1/brand-kits/${id}`, ...security });
