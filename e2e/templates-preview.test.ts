// POST /v1/templates/preview (the contract's saved template routes); adapt, which shares its rate limit, is templates-adapt.test.ts.
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
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

securitySuite('POST /v1/templates/preview', { method: 'POST', path: () => '/v1/templates/preview', body: { source: 'x', data: {} } });
