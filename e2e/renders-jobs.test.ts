import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
import { renderOk } from './support/files.ts';
import { securitySuite } from './support/security.ts';

async function poll(path: string, key: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    const response = await api(path, { key });
    if (!['queued', 'running'].includes(response.body.status)) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('job did not finish');
}

describe('job lifecycle', () => {
  it('answers 202 with wait=false while the job is queued, then finishes it', async () => {
    const account = await newAccount();
    // a page that keeps its renderer busy for a second, so the answer surely comes before the job ends
    const html = '<script>const end = Date.now() + 1000; while (Date.now() < end) {}</script><p>later</p>';
    const created = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html, javascript: { mode: 'enabled' }, wait: false } });
    expect(created.status).toBe(202);
    expect(['queued', 'running']).toContain(created.body.status);
    expect(created.body).toMatchObject({ credit: 'reserved', artifact: null, download: null, error: null, finished_at: null });
    const done = await poll(`/v1/pdf/${created.body.id}`, account.apiKey);
    expect(done.body).toMatchObject({ status: 'succeeded', credit: 'settled' });
    expect(done.body.download.url).toBeTruthy();
  });

  it('fails a render that reaches for the network, releasing its credit', async () => {
    const account = await newAccount({ plan: 'free', credits: 1 });
    const response = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<img src="http://127.0.0.1:9/pixel.png">' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'failed', credit: 'released', artifact: null, download: null, error: { category: 'unsafe_asset' } });
    expect(Object.keys(response.body.error).sort()).toEqual(['category', 'code']);
    const balance = await serviceDb().creditBalance.findFirst({ where: { accountId: account.accountId, bucket: 'trial' } });
    expect(balance?.balance).toBe(1);
    const events = await serviceDb().renderEvent.findMany({ where: { jobId: response.body.id } });
    expect(events.map((event) => event.type)).toEqual(['render.failed']);
  });

  it('records one render.succeeded event per finished job', async () => {
    const account = await newAccount();
    const { job } = await renderOk('image', account.apiKey, { html: '<p>x</p>', image: { format: 'png' } });
    const events = await serviceDb().renderEvent.findMany({ where: { jobId: job.id } });
    expect(events.map((event) => event.type)).toEqual(['render.succeeded']);
  });
});

describe('Idempotency-Key', () => {
  it('replays the one job for the same logical request, ignoring wait', async () => {
    const account = await newAccount({ plan: 'free', credits: 5 });
    const headers = { 'idempotency-key': 'order-981' };
    const first = await api('/v1/pdf', { method: 'POST', key: account.apiKey, headers, body: { html: '<p>a</p>', data: { b: 1, a: 2 }, wait: false } });
    const second = await api('/v1/pdf', { method: 'POST', key: account.apiKey, headers, body: { data: { a: 2, b: 1 }, html: '<p>a</p>' } });
    expect(second.body.id).toBe(first.body.id);
    const conflict = await api('/v1/pdf', { method: 'POST', key: account.apiKey, headers, body: { html: '<p>different</p>' } });
    expectError(conflict, 409, 'idempotency_conflict');
    // the same key on the image route is a different scope
    const image = await api('/v1/image', { method: 'POST', key: account.apiKey, headers, body: { html: '<p>a</p>', image: { format: 'png' } } });
    expect(image.status).toBe(200);
    const bad = await api('/v1/pdf', { method: 'POST', key: account.apiKey, headers: { 'idempotency-key': 'caf\u00e9' }, body: { html: 'x' } });
    expect(expectError(bad, 400, 'invalid_request').details).toEqual([{ field: 'Idempotency-Key', reason: 'invalid value' }]);
  });

  it('makes exactly one job and one reservation from 20 concurrent requests with one key', async () => {
    const account = await newAccount({ plan: 'free', credits: 20 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api('/v1/image', { method: 'POST', key: account.apiKey, headers: { 'idempotency-key': 'burst-1' }, body: { html: '<p>once</p>', image: { format: 'png' }, wait: false } }),
      ),
    );
    const ids = new Set(responses.map((response) => response.body.id));
    expect(responses.every((response) => response.status === 202 || response.status === 200)).toBe(true);
    expect(ids.size).toBe(1);
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(1);
    expect(await serviceDb().creditReservation.count({ where: { accountId: account.accountId } })).toBe(1);
  });
});

describe('limits', () => {
  it('allows a burst of 21 render requests per key, then answers 429 rate_limited with Retry-After', async () => {
    const account = await newAccount({ plan: 'free', credits: 0 });
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>x</p>' } })),
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    const passed = responses.filter((response) => response.body.error.code === 'insufficient_credits').length;
    const limited = responses.filter((response) => response.status === 429);
    // the idle burst, plus at most what five tokens a second refilled while the requests ran
    expect(passed).toBeGreaterThanOrEqual(21);
    expect(passed).toBeLessThanOrEqual(21 + Math.ceil(5 * elapsedSeconds));
    expect(limited.length).toBe(40 - passed);
    for (const response of limited) {
      const error = expectError(response, 429, 'rate_limited');
      expect(Number(response.headers.get('retry-after'))).toBe(error.retry?.retry_after_seconds);
      expect(error.retry?.retry_after_seconds).toBeGreaterThanOrEqual(1);
    }
  });

  it('answers 429 key_concurrency_limited at 8 live jobs per key and account_concurrency_limited at 16', async () => {
    const account = await newAccount();
    const db = serviceDb();
    const key = await db.apiKey.findFirstOrThrow({ where: { accountId: account.accountId } });
    const live = (count: number, keyId: string | null) =>
      db.renderJob.createMany({
        data: Array.from({ length: count }, (_, index) => ({
          id: `pdf_${(Date.now().toString(16) + index.toString(16) + Math.random().toString(16).slice(2)).padEnd(32, '0').slice(0, 32)}`,
          accountId: account.accountId,
          keyId,
          kind: 'pdf' as const,
          status: 'running' as const,
          filename: 'held',
          options: {},
          leaseExpiresAt: new Date(Date.now() + 3600_000),
        })),
      });
    await live(8, key.id);
    const keyLimited = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>x</p>' } });
    expect(expectError(keyLimited, 429, 'key_concurrency_limited').retry?.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(keyLimited.headers.get('retry-after')).toBeTruthy();

    const second = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'second' } });
    await live(8, null);
    const accountLimited = await api('/v1/pdf', { method: 'POST', key: second.body.secret, body: { html: '<p>x</p>' } });
    expectError(accountLimited, 429, 'account_concurrency_limited');
    await db.renderJob.deleteMany({ where: { accountId: account.accountId } });
  });
});

describe('history', () => {
  it('lists newest first with search, clamped limits and a keyset cursor', async () => {
    const account = await newAccount();
    const ids: string[] = [];
    for (const reference of ['alpha-1', 'beta-2', 'ALPHA-3']) {
      ids.push((await renderOk('pdf', account.apiKey, { html: '<p>x</p>', reference })).job.id);
    }
    const all = await api('/v1/pdf', { key: account.apiKey });
    expect(all.body.items.map((item: { id: string }) => item.id)).toEqual([...ids].reverse());
    expect(all.body.items[0]).not.toHaveProperty('download');
    const alpha = await api('/v1/pdf?q=alpha', { key: account.apiKey });
    expect(alpha.body.items.map((item: { reference: string }) => item.reference)).toEqual(['ALPHA-3', 'alpha-1']);
    expect((await api('/v1/pdf?q=pdf', { key: account.apiKey })).body.items).toHaveLength(3);
    expect((await api('/v1/image', { key: account.apiKey })).body.items).toHaveLength(0);

    const first = await api('/v1/pdf?limit=0', { key: account.apiKey });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(1); // clamped up to 1
    const rest = await api(`/v1/pdf?limit=500&cursor=${first.body.next_cursor}`, { key: account.apiKey });
    expect(rest.body.items.map((item: { id: string }) => item.id)).toEqual([ids[1], ids[0]]);
    expect(rest.body.next_cursor).toBeNull();

    expectError(await api('/v1/pdf?limit=abc', { key: account.apiKey }), 400, 'invalid_request');
    expectError(await api('/v1/pdf?limit=1.5', { key: account.apiKey }), 400, 'invalid_request');
    expectError(await api('/v1/pdf?cursor=%%%', { key: account.apiKey }), 400, 'invalid_cursor');
    expectError(await api('/v1/pdf?status=failed', { key: account.apiKey }), 400, 'invalid_request');
    expectError(await api(`/v1/pdf?q=${encodeURIComponent('a\u0001b')}`, { key: account.apiKey }), 400, 'invalid_request');
  });
});

describe('DELETE', () => {
  it('removes a succeeded file before marking it deleted, keeps the job readable, and repeats safely', async () => {
    const account = await newAccount();
    const { job } = await renderOk('pdf', account.apiKey, { html: '<p>x</p>' });
    const stored = await serviceDb().renderJob.findUniqueOrThrow({ where: { id: job.id } });
    const path = join(inject('filesDir'), stored.storageKey!);
    expect(existsSync(path)).toBe(true);
    const removed = await api(`/v1/pdf/${job.id}`, { method: 'DELETE', key: account.apiKey });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ status: 'succeeded', credit: 'settled', download: null, artifact: { removed_reason: 'deleted' } });
    expect(existsSync(path)).toBe(false);
    expect((await fetch(job.download.url)).status).toBe(404);
    const again = await api(`/v1/pdf/${job.id}`, { method: 'DELETE', key: account.apiKey });
    expect(again.body).toEqual(removed.body);
    expect((await api(`/v1/pdf/${job.id}`, { key: account.apiKey })).body.artifact.removed_reason).toBe('deleted');
    // still listed: the job stays, only its file went
    expect((await api('/v1/pdf', { key: account.apiKey })).body.items.map((item: { id: string }) => item.id)).toContain(job.id);
  });

  it('removes a failed job from history but keeps it readable, and refuses queued jobs with 409', async () => {
    const account = await newAccount();
    const failed = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { html: '<img src="https://example.com/x.png">', image: { format: 'png' } } });
    expect(failed.body.status).toBe('failed');
    const removed = await api(`/v1/image/${failed.body.id}`, { method: 'DELETE', key: account.apiKey });
    expect(removed.status).toBe(200);
    expect((await api('/v1/image', { key: account.apiKey })).body.items).toHaveLength(0);
    expect((await api(`/v1/image/${failed.body.id}`, { key: account.apiKey })).body.status).toBe('failed');
    expect((await api(`/v1/image/${failed.body.id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(200);

    const held = await serviceDb().renderJob.create({
      data: { id: `image_${'ab'.repeat(16)}`, accountId: account.accountId, kind: 'image', status: 'queued', filename: 'held', options: {} },
    });
    expectError(await api(`/v1/image/${held.id}`, { method: 'DELETE', key: account.apiKey }), 409, 'job_not_finished');
    await serviceDb().renderJob.delete({ where: { id: held.id } });
  });
});

const missingPdf = `pdf_${'0'.repeat(32)}`;
const arrangePdf = async (account: { apiKey: string }) => (await renderOk('pdf', account.apiKey, { html: '<p>x</p>' })).job.id as string;
securitySuite('POST /v1/pdf', { method: 'POST', path: () => '/v1/pdf', body: { html: '<p>x</p>' } });
securitySuite('POST /v1/image', { method: 'POST', path: () => '/v1/image', body: { html: '<p>x</p>', image: { format: 'png' } } });
securitySuite('GET /v1/pdf', { method: 'GET', path: () => '/v1/pdf' });
securitySuite('GET /v1/image', { method: 'GET', path: () => '/v1/image' });
securitySuite('GET /v1/pdf/{id}', { method: 'GET', path: (id) => `/v1/pdf/${id}`, arrange: arrangePdf, missingId: missingPdf });
securitySuite('DELETE /v1/pdf/{id}', { method: 'DELETE', path: (id) => `/v1/pdf/${id}`, arrange: arrangePdf, missingId: missingPdf });
securitySuite('GET /v1/image/{id}', {
  method: 'GET',
  path: (id) => `/v1/image/${id}`,
  arrange: async (account) => (await renderOk('image', account.apiKey, { html: '<p>x</p>', image: { format: 'png' } })).job.id,
  missingId: `image_${'0'.repeat(32)}`,
});
