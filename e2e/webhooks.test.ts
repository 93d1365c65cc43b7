// Webhook destinations over HTTP: create, list, get, delete, rotate, disable, enable, replay,
// test and the delivery log, with every documented error and the security suite. Nothing
// here makes a delivery (the shared worker has no egress allowlist): URLs are public
// address literals and no render or test is started for them. Deliveries are covered by
// webhooks-delivery.test.ts against a loopback receiver.
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb, type TestAccount, uuidPattern } from './support/api.ts';
import { securitySuite } from './support/security.ts';

const publicUrl = 'https://93.184.215.14/hooks/render';
const missingId = `wh_${'0'.repeat(32)}`;
const webhookFields = [
  'created_at',
  'disabled_reason',
  'display_prefix',
  'events',
  'failure_count',
  'id',
  'last_delivery_at',
  'previous_secret_expires_at',
  'status',
  'url',
];

async function createWebhook(account: TestAccount, body: unknown = { url: publicUrl }) {
  return api('/v1/webhooks', { method: 'POST', key: account.apiKey, body });
}
const arrange = async (account: TestAccount) => (await createWebhook(account)).body.id as string;

describe('POST /v1/webhooks', () => {
  it('creates an enabled destination with all three events and a secret shown once', async () => {
    const account = await newAccount();
    const created = await createWebhook(account);
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toMatch(uuidPattern);
    expect(Object.keys(created.body).sort()).toEqual([...webhookFields, 'secret'].sort());
    expect(created.body).toMatchObject({
      url: publicUrl,
      events: ['render.cancelled', 'render.failed', 'render.succeeded'],
      status: 'enabled',
      disabled_reason: null,
      failure_count: 0,
      last_delivery_at: null,
      previous_secret_expires_at: null,
    });
    expect(created.body.id).toMatch(/^wh_[0-9a-f]{32}$/);
    expect(created.body.secret).toMatch(/^svc_whsec_[0-9a-f]{64}$/);
    expect(created.body.display_prefix).toBe(created.body.secret.slice(0, 14));
    const read = await api(`/v1/webhooks/${created.body.id}`, { key: account.apiKey });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(JSON.stringify(read.body)).not.toContain(created.body.secret.slice(14));
    // at rest the secret is sealed: the row holds no trace of it
    const row = await serviceDb().webhook.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.secret).toMatch(/^svc_sealed_v2\.[A-Za-z0-9+/]+=*$/);
    expect(row.secret).not.toContain(created.body.secret.slice(10));
    expect(Buffer.from(row.secret.slice(14), 'base64').toString('latin1')).not.toContain(created.body.secret.slice(10));
  });

  it('keeps the selected events sorted and distinct', async () => {
    const account = await newAccount();
    const created = await createWebhook(account, { url: publicUrl, events: ['render.succeeded', 'render.cancelled'] });
    expect(created.status).toBe(201);
    expect(created.body.events).toEqual(['render.cancelled', 'render.succeeded']);
    const single = await createWebhook(account, { url: 'https://[2606:4700:4700::1111]/x', events: ['render.failed'] });
    expect(single.body.events).toEqual(['render.failed']);
  });

  it('refuses URLs that break the egress policy, naming the policy code in the details entry', async () => {
    const account = await newAccount();
    const cases: [string, string][] = [
      ['http://93.184.215.14/hook', 'url.scheme_not_https'],
      ['https://93.184.215.14:8443/hook', 'url.port_not_allowed'],
      ['https://user:secret@93.184.215.14/hook', 'url.credentials_not_allowed'],
      ['not a url', 'url.url_malformed'],
      ['https://localhost/hook', 'url.loopback_address'],
      ['https://127.1/hook', 'url.loopback_address'],
      ['https://2130706433/hook', 'url.loopback_address'],
      ['https://0x7f000001/hook', 'url.loopback_address'],
      ['https://0177.0.0.1/hook', 'url.loopback_address'],
      ['https://[::ffff:127.0.0.1]/hook', 'url.loopback_address'],
      ['https://0.0.0.0/hook', 'url.unspecified_address'],
      ['https://[::]/hook', 'url.unspecified_address'],
      ['https://169.254.169.254/latest', 'url.metadata_address'],
      ['https://10.1.2.3/hook', 'url.private_address'],
      ['https://[64:ff9b::a00:1]/hook', 'url.private_address'],
      ['https://[2002:c0a8:101::]/hook', 'url.private_address'],
      ['https://100.64.0.1/hook', 'url.cgnat_address'],
      ['https://198.18.0.1/hook', 'url.benchmarking_address'],
      ['https://239.1.1.1/hook', 'url.multicast_address'],
      ['https://240.0.0.1/hook', 'url.reserved_address'],
    ];
    for (const [url, field] of cases) {
      const error = expectError(await createWebhook(account, { url }), 400, 'invalid_request');
      expect(error.details, url).toEqual([{ field, reason: 'invalid value' }]);
    }
    const long = await createWebhook(account, { url: `https://93.184.215.14/${'a'.repeat(2030)}` });
    expect(expectError(long, 400, 'invalid_request').details).toEqual([{ field: 'url', reason: 'invalid value' }]);
    expect(await serviceDb().webhook.count({ where: { accountId: account.accountId } })).toBe(0);
  });

  it('refuses empty, duplicated, too many and unknown events, and malformed bodies', async () => {
    const account = await newAccount();
    const cases: [unknown, { field: string; reason: string }][] = [
      [{ url: publicUrl, events: [] }, { field: 'events', reason: 'invalid value' }],
      [{ url: publicUrl, events: ['render.failed', 'render.failed'] }, { field: 'events', reason: 'invalid value' }],
      [{ url: publicUrl, events: ['render.failed', 'render.succeeded', 'render.cancelled', 'render.failed'] }, { field: 'events', reason: 'invalid value' }],
      [{ url: publicUrl, events: ['render.started'] }, { field: 'events.0', reason: 'invalid value' }],
      [{ url: publicUrl, events: 'render.failed' }, { field: 'events', reason: 'wrong type' }],
      [{}, { field: 'url', reason: 'missing field' }],
      [{ url: 5 }, { field: 'url', reason: 'wrong type' }],
      [{ url: publicUrl, secret: 'mine' }, { field: 'secret', reason: 'unknown field' }],
    ];
    for (const [body, detail] of cases) {
      const error = expectError(await createWebhook(account, body), 400, 'invalid_request');
      expect(error.details, JSON.stringify(body)).toContainEqual(detail);
    }
    const malformed = await api('/v1/webhooks', { method: 'POST', key: account.apiKey, rawBody: '{"url":', headers: { 'content-type': 'application/json' } });
    expect(expectError(malformed, 400, 'invalid_request').details).toEqual([{ field: '', reason: 'malformed JSON' }]);
  });

  it('answers 415 for a non-JSON content type and 413 over 16 KiB', async () => {
    const account = await newAccount();
    const form = await api('/v1/webhooks', { method: 'POST', key: account.apiKey, rawBody: 'url=x', headers: { 'content-type': 'text/plain' } });
    expectError(form, 415, 'unsupported_media_type');
    const big = await createWebhook(account, { url: publicUrl, pad: 'y'.repeat(17 * 1024) });
    expectError(big, 413, 'request_too_large');
  });

  it('allows ten destinations and answers 409 webhook_limit_reached beyond, even when asked at once', async () => {
    const account = await newAccount();
    const attempts = await Promise.all(Array.from({ length: 13 }, () => createWebhook(account)));
    const created = attempts.filter((response) => response.status === 201);
    expect(created).toHaveLength(10);
    for (const refused of attempts.filter((response) => response.status !== 201)) expectError(refused, 409, 'webhook_limit_reached');
    // disabled destinations count; a deleted one frees a place
    await api(`/v1/webhooks/${created[0]!.body.id}/disable`, { method: 'POST', key: account.apiKey });
    expectError(await createWebhook(account), 409, 'webhook_limit_reached');
    expect((await api(`/v1/webhooks/${created[0]!.body.id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(204);
    expect((await createWebhook(account)).status).toBe(201);
  });
});

describe('GET /v1/webhooks and /v1/webhooks/{id}', () => {
  it('lists the account’s destinations newest first, without secrets or paging', async () => {
    const account = await newAccount();
    const other = await newAccount();
    await arrange(other);
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) ids.push(await arrange(account));
    const listed = await api('/v1/webhooks', { key: account.apiKey });
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.body)).toEqual(['data']);
    expect(listed.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([...ids].reverse());
    for (const webhook of listed.body.data) expect(Object.keys(webhook).sort()).toEqual(webhookFields);
    const empty = await api('/v1/webhooks', { key: (await newAccount()).apiKey });
    expect(empty.body).toEqual({ data: [] });
  });

  it('answers 404 for unknown and malformed ids', async () => {
    const account = await newAccount();
    expectError(await api(`/v1/webhooks/${missingId}`, { key: account.apiKey }), 404, 'not_found');
    expectError(await api('/v1/webhooks/wh_nope', { key: account.apiKey }), 404, 'not_found');
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const response = await api('/v1/webhooks', { method: 'PUT' });
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('POST, GET');
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('answers 204 with no body, then the destination is gone', async () => {
    const account = await newAccount();
    const id = await arrange(account);
    const deleted = await api(`/v1/webhooks/${id}`, { method: 'DELETE', key: account.apiKey });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await api(`/v1/webhooks/${id}`, { key: account.apiKey }), 404, 'not_found');
    expectError(await api(`/v1/webhooks/${id}`, { method: 'DELETE', key: account.apiKey }), 404, 'not_found');
  });
});

describe('POST /v1/webhooks/{id}/rotate', () => {
  it('returns a new secret and opens a 24-hour overlap', async () => {
    const account = await newAccount();
    const created = await createWebhook(account);
    const before = Date.now();
    const rotated = await api(`/v1/webhooks/${created.body.id}/rotate`, { method: 'POST', key: account.apiKey });
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body).sort()).toEqual([...webhookFields, 'secret'].sort());
    expect(rotated.body.secret).toMatch(/^svc_whsec_[0-9a-f]{64}$/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(rotated.body.display_prefix).toBe(rotated.body.secret.slice(0, 14));
    const expires = Date.parse(rotated.body.previous_secret_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 1000);
    const read = await api(`/v1/webhooks/${created.body.id}`, { key: account.apiKey });
    expect(read.body.previous_secret_expires_at).toBe(rotated.body.previous_secret_expires_at);
    // both signing secrets stay sealed at rest
    const row = await serviceDb().webhook.findUniqueOrThrow({ where: { id: created.body.id } });
    for (const value of [row.secret, row.previousSecret!]) expect(value).toMatch(/^svc_sealed_v2\./);
    const text = JSON.stringify(row);
    for (const secret of [created.body.secret, rotated.body.secret]) expect(text).not.toContain(secret.slice(10));
  });
});

describe('POST /v1/webhooks/{id}/disable and /enable', () => {
  it('disables with owner_request, enables and resets failure_count; repeats return the same answer', async () => {
    const account = await newAccount();
    const id = await arrange(account);
    const disabled = await api(`/v1/webhooks/${id}/disable`, { method: 'POST', key: account.apiKey });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', disabled_reason: 'owner_request' });
    const again = await api(`/v1/webhooks/${id}/disable`, { method: 'POST', key: account.apiKey });
    expect(again.body).toEqual(disabled.body);

    await serviceDb().webhook.update({ where: { id }, data: { failureCount: 17 } });
    const enabled = await api(`/v1/webhooks/${id}/enable`, { method: 'POST', key: account.apiKey });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null, failure_count: 0 });
    const repeat = await api(`/v1/webhooks/${id}/enable`, { method: 'POST', key: account.apiKey });
    expect(repeat.body).toEqual(enabled.body);
  });

  it('keeps delivery_failure when an automatically disabled destination is disabled again', async () => {
    const account = await newAccount();
    const id = await arrange(account);
    await serviceDb().webhook.update({ where: { id }, data: { status: 'disabled', disabledReason: 'delivery_failure', failureCount: 50 } });
    const disabled = await api(`/v1/webhooks/${id}/disable`, { method: 'POST', key: account.apiKey });
    expect(disabled.body).toMatchObject({ status: 'disabled', disabled_reason: 'delivery_failure', failure_count: 50 });
  });
});

describe('POST /v1/webhooks/{id}/replay and GET /deliveries', () => {
  it('replays nothing when nothing failed, and starts with an empty delivery log', async () => {
    const account = await newAccount();
    const id = await arrange(account);
    const replay = await api(`/v1/webhooks/${id}/replay`, { method: 'POST', key: account.apiKey });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ replayed: 0 });
    const log = await api(`/v1/webhooks/${id}/deliveries`, { key: account.apiKey });
    expect(log.status).toBe(200);
    expect(log.body).toEqual({ data: [] });
  });
});

const post = (suffix: string) => ({ method: 'POST', path: (id: string) => `/v1/webhooks/${id}${suffix}`, arrange, missingId });
securitySuite('POST /v1/webhooks', { method: 'POST', path: () => '/v1/webhooks', body: { url: publicUrl } });
securitySuite('GET /v1/webhooks', { method: 'GET', path: () => '/v1/webhooks' });
securitySuite('GET /v1/webhooks/{id}', { method: 'GET', path: (id) => `/v1/webhooks/${id}`, arrange, missingId });
securitySuite('DELETE /v1/webhooks/{id}', { method: 'DELETE', path: (id) => `/v1/webhooks/${id}`, arrange, missingId });
securitySuite('POST /v1/webhooks/{id}/rotate', post('/rotate'));
securitySuite('POST /v1/webhooks/{id}/disable', post('/disable'));
securitySuite('POST /v1/webhooks/{id}/enable', post('/enable'));
securitySuite('POST /v1/webhooks/{id}/replay', post('/replay'));
securitySuite('POST /v1/webhooks/{id}/test', post('/test'));
securitySuite('GET /v1/webhooks/{id}/deliveries', { method: 'GET', path: (id) => `/v1/webhooks/${id}/deliveries`, arrange, missingId });
