import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb, uuidPattern } from './support/api.ts';
import { securitySuite } from './support/security.ts';

const missingKeyId = `key_${'0'.repeat(32)}`;
const arrangeKey = async (account: { apiKey: string }) => {
  const created = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'target' } });
  return created.body.id as string;
};

describe('POST /v1/keys', () => {
  it('creates a key whose secret is shown once and works at once', async () => {
    const account = await newAccount();
    const created = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'CI deploys' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toMatch(uuidPattern);
    expect(Object.keys(created.body).sort()).toEqual(['created_at', 'display_prefix', 'id', 'name', 'secret', 'status']);
    expect(created.body.id).toMatch(/^key_[0-9a-f]{32}$/);
    expect(created.body.secret).toMatch(/^svc_sk_v1_[0-9a-f]{64}$/);
    expect(created.body.secret.startsWith(created.body.display_prefix)).toBe(true);
    expect(created.body.status).toBe('active');
    expect(created.body.name).toBe('CI deploys');

    const listed = await api('/v1/keys', { key: created.body.secret });
    expect(listed.status).toBe(200);
    const entry = listed.body.data.find((key: { id: string }) => key.id === created.body.id);
    expect(entry).toBeDefined();
    expect(entry).not.toHaveProperty('secret');
    expect(entry.last_used_at).not.toBeNull();

    const stored = await serviceDb().apiKey.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(JSON.stringify(stored)).not.toContain(created.body.secret);
  });

  it('refuses empty, blank, long and non-printable names with field details', async () => {
    const account = await newAccount();
    for (const name of ['', '   ', 'x'.repeat(101), 'tab\there', 'caf\u00e9']) {
      const response = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name } });
      const error = expectError(response, 400, 'invalid_request');
      expect(error.details).toEqual([{ field: 'name', reason: 'invalid value' }]);
    }
    const missing = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: {} });
    expect(expectError(missing, 400, 'invalid_request').details).toEqual([{ field: 'name', reason: 'missing field' }]);
    const wrongType = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 5 } });
    expect(expectError(wrongType, 400, 'invalid_request').details).toEqual([{ field: 'name', reason: 'wrong type' }]);
    const unknown = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'ok', scopes: ['all'] } });
    expect(expectError(unknown, 400, 'invalid_request').details).toEqual([{ field: 'scopes', reason: 'unknown field' }]);
    const malformed = await api('/v1/keys', { method: 'POST', key: account.apiKey, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(expectError(malformed, 400, 'invalid_request').details).toEqual([{ field: '', reason: 'malformed JSON' }]);
  });

  it('accepts exactly 100 printable characters', async () => {
    const account = await newAccount();
    const name = ` ~${'a'.repeat(98)}`;
    const response = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name } });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(name);
  });

  it('allows ten active keys and answers 409 key_limit_reached for the eleventh, even when asked at once', async () => {
    const account = await newAccount();
    const attempts = await Promise.all(
      Array.from({ length: 14 }, (_, index) => api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: `k${index}` } })),
    );
    const created = attempts.filter((response) => response.status === 201);
    expect(created).toHaveLength(9); // the account's first key counts too
    for (const refused of attempts.filter((response) => response.status !== 201)) expectError(refused, 409, 'key_limit_reached');
    // a revoked key frees a place
    await api(`/v1/keys/${created[0]!.body.id}`, { method: 'DELETE', key: account.apiKey });
    expect((await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'again' } })).status).toBe(201);
  });

  it('answers 415 for a non-JSON content type and 413 over 16 KiB', async () => {
    const account = await newAccount();
    const form = await api('/v1/keys', { method: 'POST', key: account.apiKey, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectError(form, 415, 'unsupported_media_type');
    const none = await api('/v1/keys', { method: 'POST', key: account.apiKey, rawBody: '{"name":"x"}' });
    expectError(none, 415, 'unsupported_media_type');
    const big = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'x', pad: 'y'.repeat(17 * 1024) } });
    expectError(big, 413, 'request_too_large');
    const justUnder = JSON.stringify({ name: 'x' }).length;
    expect(justUnder).toBeLessThan(16 * 1024);
  });
});

describe('GET /v1/keys', () => {
  it('pages newest first with a cursor and keeps revoked keys', async () => {
    const account = await newAccount();
    const ids: string[] = [(await api('/v1/keys', { key: account.apiKey })).body.data[0].id];
    for (let index = 0; index < 4; index++) {
      ids.push((await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: `k${index}` } })).body.id);
    }
    await api(`/v1/keys/${ids[1]}`, { method: 'DELETE', key: account.apiKey });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await api(`/v1/keys?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: account.apiKey });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((key: { id: string }) => key.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const all = await api('/v1/keys', { key: account.apiKey });
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.data.find((key: { id: string }) => key.id === ids[1]).status).toBe('revoked');
  });

  it('answers 400 for a bad limit, a bad cursor and unknown parameters', async () => {
    const account = await newAccount();
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=2.5']) {
      const error = expectError(await api(`/v1/keys?${query}`, { key: account.apiKey }), 400, 'invalid_request');
      expect(error.details?.[0]?.field).toBe('limit');
    }
    expectError(await api('/v1/keys?cursor=garbage!', { key: account.apiKey }), 400, 'invalid_cursor');
    expectError(await api(`/v1/keys?cursor=${Buffer.from('123.key_nothex').toString('base64url')}`, { key: account.apiKey }), 400, 'invalid_cursor');
    expectError(await api(`/v1/keys?cursor=${'a'.repeat(129)}`, { key: account.apiKey }), 400, 'invalid_request');
    const unknown = expectError(await api('/v1/keys?sort=asc', { key: account.apiKey }), 400, 'invalid_request');
    expect(unknown.details).toEqual([{ field: 'sort', reason: 'unknown field' }]);
  });

  it("never shows another account's keys", async () => {
    const first = await newAccount();
    const second = await newAccount();
    const listed = await api('/v1/keys', { key: second.apiKey });
    const firstKeys = await api('/v1/keys', { key: first.apiKey });
    expect(listed.body.data.map((key: { id: string }) => key.id)).not.toContain(firstKeys.body.data[0].id);
  });
});

describe('PATCH /v1/keys/{key_id}', () => {
  it('renames, sets, keeps and clears the monthly overage cap', async () => {
    const account = await newAccount();
    const keyId = await arrangeKey(account);
    const set = await api(`/v1/keys/${keyId}`, { method: 'PATCH', key: account.apiKey, body: { monthly_overage_cap: 250 } });
    expect(set.status).toBe(200);
    expect(set.body.monthly_overage_cap).toBe(250);
    const renamed = await api(`/v1/keys/${keyId}`, { method: 'PATCH', key: account.apiKey, body: { name: 'renamed' } });
    expect(renamed.body).toMatchObject({ name: 'renamed', monthly_overage_cap: 250 }); // omitted cap is kept
    const cleared = await api(`/v1/keys/${keyId}`, { method: 'PATCH', key: account.apiKey, body: { monthly_overage_cap: null } });
    expect(cleared.body.monthly_overage_cap).toBeNull();
    expect(cleared.body.display_prefix).toBe(set.body.display_prefix);
  });

  it('refuses a zero, negative or fractional cap and unknown fields', async () => {
    const account = await newAccount();
    const keyId = await arrangeKey(account);
    for (const cap of [0, -1, 1.5, '10']) {
      const error = expectError(await api(`/v1/keys/${keyId}`, { method: 'PATCH', key: account.apiKey, body: { monthly_overage_cap: cap } }), 400, 'invalid_request');
      expect(error.details?.[0]?.field).toBe('monthly_overage_cap');
    }
    const unknown = await api(`/v1/keys/${keyId}`, { method: 'PATCH', key: account.apiKey, body: { status: 'active' } });
    expect(expectError(unknown, 400, 'invalid_request').details).toEqual([{ field: 'status', reason: 'unknown field' }]);
    const big = await api(`/v1/keys/${keyId}`, { method: 'PATCH', key: account.apiKey, body: { name: 'x', pad: 'y'.repeat(17 * 1024) } });
    expectError(big, 413, 'request_too_large');
    const text = await api(`/v1/keys/${keyId}`, { method: 'PATCH', key: account.apiKey, rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    expectError(text, 415, 'unsupported_media_type');
  });
});

describe('DELETE /v1/keys/{key_id}', () => {
  it('revokes a key, which then stops working, and repeats the same answer', async () => {
    const account = await newAccount();
    const created = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'short-lived' } });
    const first = await api(`/v1/keys/${created.body.id}`, { method: 'DELETE', key: account.apiKey });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('revoked');
    expect(first.body.revoked_at).not.toBeNull();
    const again = await api(`/v1/keys/${created.body.id}`, { method: 'DELETE', key: account.apiKey });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expectError(await api('/v1/keys', { key: created.body.secret }), 401, 'unauthorized');
  });
});

securitySuite('POST /v1/keys', { method: 'POST', path: () => '/v1/keys', body: { name: 'x' } });
securitySuite('GET /v1/keys', { method: 'GET', path: () => '/v1/keys' });
securitySuite('PATCH /v1/keys/{key_id}', {
  method: 'PATCH',
  path: (id) => `/v1/keys/${id}`,
  arrange: arrangeKey,
  missingId: missingKeyId,
  body: { name: 'x' },
});
securitySuite('DELETE /v1/keys/{key_id}', { method: 'DELETE', path: (id) => `/v1/keys/${id}`, arrange: arrangeKey, missingId: missingKeyId });
