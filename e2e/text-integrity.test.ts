// Text the service stores or evaluates holds no U+0000 and no lone surrogate: such text is
// refused with 400 invalid_request on its field (never a 500, a silent U+FFFD or a cut
// document), nothing is created or charged, and well-formed text beyond the BMP round-trips.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, type ApiResponse, baseUrl, expectError, newAccount, serviceDb, type TestAccount } from './support/api.ts';
import { gql, operatorToken } from './support/graphql.ts';

/** A seeded generator (mulberry32): a failing run names its seed, and SVC_TEXT_SEED replays it. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

const seed = Number(process.env.SVC_TEXT_SEED ?? 25_0001);
const runsPerField = 3;
const unsafe = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff'];

/** The valid value with one unsafe character inserted at a random UTF-16 position. */
function corrupt(random: ReturnType<typeof generator>, valid: string): string {
  const at = Math.floor(random.next() * (valid.length + 1));
  return `${valid.slice(0, at)}${random.pick(unsafe)}${valid.slice(at)}`;
}

interface TextField {
  /** The path, given the ids of a template and a brand kit the account already has. */
  route: string | ((ids: Ids) => string);
  method?: string;
  /** The request body with `text` in the field under test. */
  body: (text: string) => unknown;
  valid: string;
  field: string;
}

interface Ids {
  template: string;
  kit: string;
}

const webhookUrl = 'https://93.184.215.14/hooks/render';
const source = '<p>{{ a }}</p><p>after 😀</p>';

// Every JSON route that stores or evaluates customer text, with a valid value holding a
// surrogate pair, so an insertion can also split the pair.
const fields: TextField[] = [
  { route: '/v1/pdf', body: (text) => ({ html: text }), valid: '<p>Hello 😀</p>', field: 'html' },
  { route: '/v1/pdf', body: (text) => ({ html: '<p>x</p>', pdf: { title: text } }), valid: 'Quarterly 😀', field: 'pdf.title' },
  {
    route: '/v1/pdf',
    body: (text) => ({ html: '<p>x</p>', pdf: { display_header_footer: true, header_template: text } }),
    valid: '<span>Head 😀</span>',
    field: 'pdf.header_template',
  },
  { route: '/v1/pdf', body: (text) => ({ html: source, data: { a: text } }), valid: 'x😀y', field: 'data/a' },
  { route: '/v1/pdf', body: (text) => ({ html: source, data: { list: ['ok', { b: text }] } }), valid: 'x😀y', field: 'data/list/1/b' },
  { route: '/v1/image', body: (text) => ({ html: text }), valid: '<p>Hello 😀</p>', field: 'html' },
  { route: '/v1/image', body: (text) => ({ html: source, data: { a: text } }), valid: '😀', field: 'data/a' },
  { route: '/v1/templates', body: (text) => ({ source: text }), valid: source, field: 'source' },
  { route: '/v1/templates', body: (text) => ({ source, name: text }), valid: 'Invoice 😀', field: 'name' },
  { route: '/v1/templates', body: (text) => ({ source, tags: ['plain', text] }), valid: 'music 𝄞', field: 'tags.1' },
  {
    route: '/v1/templates',
    body: (text) => ({ source, schema: { type: 'object', properties: { a: { type: 'string', description: text } } } }),
    valid: 'The 😀 text',
    field: 'schema.properties.a.description',
  },
  { route: '/v1/templates/preview', body: (text) => ({ source: text, data: { a: 'x' } }), valid: source, field: 'source' },
  { route: '/v1/templates/preview', body: (text) => ({ source, data: { a: text } }), valid: 'x😀y', field: 'data/a' },
  { route: '/v1/brand-kits', body: (text) => ({ name: text }), valid: 'Acme 😀', field: 'name' },
  { route: '/v1/brand-kits', body: (text) => ({ name: 'Acme', tone_guidance: text }), valid: 'Warm 😀 and brief', field: 'tone_guidance' },
  { route: '/v1/webhooks', body: (text) => ({ url: text }), valid: webhookUrl, field: 'url' },
  { route: '/v1/keys', body: (text) => ({ name: text }), valid: 'CI 😀', field: 'name' },
  { route: (ids) => `/v1/templates/${ids.template}`, method: 'PATCH', body: (text) => ({ name: text }), valid: 'Renamed 😀', field: 'name' },
  { route: (ids) => `/v1/templates/${ids.template}/versions`, body: (text) => ({ source: text }), valid: source, field: 'source' },
  {
    route: (ids) => `/v1/templates/${ids.template}/versions`,
    body: (text) => ({ source: '<div>{{ a }}</div>', sizes: [{ id: 'square', name: 'Square', width: 1080, height: 1080, data_overrides: { a: text } }] }),
    valid: 'big 😀',
    field: 'sizes.0.data_overrides/a',
  },
  { route: (ids) => `/v1/brand-kits/${ids.kit}`, method: 'PATCH', body: (text) => ({ tone_guidance: text }), valid: 'Calm 😀', field: 'tone_guidance' },
  { route: '/v1/batches', body: (text) => ({ template_id: 'tpl_' + '0'.repeat(32), format: 'pdf', rows: [{ a: 'ok' }, { a: text }] }), valid: 'row 😀', field: 'rows.1/a' },
  { route: '/v1/carousels', body: (text) => ({ template_id: 'tpl_' + '0'.repeat(32), format: 'png', data: { a: text } }), valid: 'slide 😀', field: 'data/a' },
  { route: '/v1/template-builds', body: (text) => ({ input: { type: 'prompt', prompt: text } }), valid: 'An invoice 😀', field: 'input.prompt' },
  {
    route: '/v1/template-builds',
    body: (text) => ({ input: { type: 'source', source, sample_data: { a: text } } }),
    valid: 'x😀',
    field: 'input.sample_data/a',
  },
];

/** What the account has: anything created or charged by a refused request shows here. */
async function footprint(account: TestAccount) {
  const db = serviceDb();
  const where = { accountId: account.accountId };
  return {
    templates: await db.template.count({ where }),
    renders: await db.renderJob.count({ where }),
    brandKits: await db.brandKit.count({ where }),
    webhooks: await db.webhook.count({ where }),
    keys: await db.apiKey.count({ where }),
    credits: (await db.creditBalance.findMany({ where, orderBy: { bucket: 'asc' } })).map((row) => [row.bucket, row.balance]),
  };
}

function expectRefusedAt(response: ApiResponse, field: string, context: string) {
  expect(response.status, `${context}: ${response.text.slice(0, 300)}`).toBe(400);
  expect(expectError(response, 400, 'invalid_request').details, context).toEqual([{ field, reason: 'invalid value' }]);
}

describe('text integrity', () => {
  it('refuses U+0000 and lone surrogates anywhere in a stored or evaluated field, on that field, creating and charging nothing', async () => {
    const account = await newAccount({ plan: 'free', credits: 50 });
    const template = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source, name: 'Kept' } });
    const kit = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Kept', tone_guidance: 'Kept' } });
    expect([template.status, kit.status], `${template.text} ${kit.text}`).toEqual([201, 201]);
    const ids: Ids = { template: template.body.id, kit: kit.body.id };
    const before = await footprint(account);
    const random = generator(seed);
    for (const target of fields) {
      for (let run = 0; run < runsPerField; run += 1) {
        const text = corrupt(random, target.valid);
        const route = typeof target.route === 'string' ? target.route : target.route(ids);
        const context = `seed ${seed}: ${route} ${target.field} = ${JSON.stringify(text)}`;
        const headers = { 'idempotency-key': randomUUID() };
        const response = await api(route, { method: target.method ?? 'POST', key: account.apiKey, body: target.body(text), headers });
        expectRefusedAt(response, target.field, context);
        // the answer names the field, never the value
        expect(response.text, context).not.toContain(JSON.stringify(text).slice(1, -1));
      }
    }
    expect(await footprint(account)).toEqual(before);
    // what was there is unchanged: no refused write reached it
    expect((await api(`/v1/templates/${ids.template}`, { key: account.apiKey })).body).toMatchObject({ name: 'Kept', latest_version: 1 });
    expect((await api(`/v1/brand-kits/${ids.kit}`, { key: account.apiKey })).body).toMatchObject({ tone_guidance: 'Kept' });
    expect(await serviceDb().templateBuild.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await serviceDb().renderGroup.count({ where: { accountId: account.accountId } })).toBe(0);
  });

  it('answers the reported cases: NUL html and source, and data that used to cut the document short and still be charged', async () => {
    const account = await newAccount({ plan: 'free', credits: 5 });
    const before = await footprint(account);
    expectRefusedAt(await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '\u0000' } }), 'html', 'pdf html');
    expectRefusedAt(await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '\u0000' } }), 'source', 'template source');
    const cut = { source: '<p>{{ a }}</p><p>after</p>', data: { a: 'x\u0000y' } };
    expectRefusedAt(await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: cut }), 'data/a', 'preview');
    expectRefusedAt(await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: cut.source, data: cut.data, wait: true } }), 'data/a', 'render');
    // a lone surrogate is refused, not stored as U+FFFD
    expectRefusedAt(await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: 'x', name: '\ud800' } }), 'name', 'name');
    // keys count too: the detail names the key with U+FFFD in place of what cannot be stored
    expectRefusedAt(await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source: 'x', data: { 'a\u0000b': 1 } } }), 'data/a\ufffdb', 'data key');
    expectRefusedAt(await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source: 'x', data: { 'p/q': { r: '\udc00' } } } }), 'data/p~1q/r', 'pointer');
    expect(await footprint(account)).toEqual(before);
  });

  it('refuses bodies that are not UTF-8 as malformed JSON instead of replacing characters', async () => {
    const account = await newAccount();
    // CESU-8 for a lone surrogate, then a stray continuation byte
    for (const bytes of [Buffer.from([0x7b, 0x22, 0x68, 0x74, 0x6d, 0x6c, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), Buffer.from('{"html":"\x80"}', 'latin1')]) {
      const response = await fetch(new URL('/v1/pdf', baseUrl()), {
        method: 'POST',
        headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
        body: bytes,
      });
      const text = await response.text();
      expect(response.status, text).toBe(400);
      expect(JSON.parse(text).error).toMatchObject({ code: 'invalid_request', details: [{ field: '', reason: 'malformed JSON' }] });
    }
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
  });

  it('refuses NUL in a query parameter', async () => {
    const account = await newAccount();
    expectRefusedAt(await api('/v1/templates?q=a%00b', { key: account.apiKey }), 'q', 'query');
  });

  it('refuses NUL and lone surrogates in GraphQL arguments, inline or as variables, before anything changes', async () => {
    const token = await operatorToken('text integrity');
    const account = await newAccount({ plan: 'free', credits: 3 });
    const before = await footprint(account);
    const mutation = 'mutation ($id: ID!, $reason: String!) { grantCredits(accountId: $id, bucket: PACK, amount: 30, reason: $reason) { id } }';
    for (const reason of ['good\u0000will', 'good\ud800will']) {
      const response = await gql(mutation, { token, variables: { id: account.accountId, reason } });
      expect(response.body.errors?.map((error: any) => [error.extensions?.code, error.extensions?.details]), response.text).toEqual([
        ['invalid_request', [{ field: 'reason', reason: 'invalid value' }]],
      ]);
    }
    const inline = await gql(`mutation { grantCredits(accountId: "${account.accountId}", bucket: PACK, amount: 30, reason: "a\\u0000b") { id } }`, { token });
    expect(inline.body.errors?.[0]?.extensions?.code, inline.text).toBe('invalid_request');
    expect(await footprint(account)).toEqual(before);
  });

  it('keeps well-formed text beyond the BMP unchanged: stored, read back and evaluated', async () => {
    const account = await newAccount();
    const name = 'Report 😀 𝄞 ok';
    const created = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source, name, tags: ['😀 tag'] } });
    expect(created.status, created.text).toBe(201);
    const read = await api(`/v1/templates/${created.body.id}`, { key: account.apiKey });
    expect(read.body).toMatchObject({ name, tags: ['😀 tag'] });
    const preview = await api('/v1/templates/preview', { method: 'POST', key: account.apiKey, body: { source, data: { a: '😀𝄞\u00a0é' } } });
    expect(preview.body).toEqual({ html: '<p>😀𝄞\u00a0é</p><p>after 😀</p>' });
    const kit = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Kit 😀', tone_guidance: 'Warm 𝄞' } });
    expect(kit.status, kit.text).toBe(201);
    expect(kit.body).toMatchObject({ name: 'Kit 😀', tone_guidance: 'Warm 𝄞' });
  });
});

