// AI template builds over HTTP against the service of the global setup, which has no AI
// provider: routes, states, idempotency and credits of messages that need no model, and the
// refusals of those that do. The model pipeline is tested in template-builds-ai.test.ts.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, emptyBucket, expectError, newAccount, serviceDb, type TestAccount } from './support/api.ts';
import { securitySuite } from './support/security.ts';

const source = '<!doctype html><html><body><h1 style="color: {{ brand.colours.primary }}">{{ title }}</h1></body></html>';

async function newKit(account: TestAccount): Promise<string> {
  const kit = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Acme', colours: ['#112233', '#445566'] } });
  expect(kit.status).toBe(201);
  return kit.body.id;
}

function build(account: TestAccount, body: unknown, key: string | null = randomUUID()) {
  return api('/v1/template-builds', { method: 'POST', key: account.apiKey, body, headers: key === null ? {} : { 'idempotency-key': key } });
}

async function balances(account: TestAccount) {
  return (await api('/v1/me', { key: account.apiKey })).body as { balances: Record<string, number>; reserved: number };
}

describe('POST /v1/template-builds with a source', () => {
  it('makes the source the draft at once, with no model and no credits', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    const created = await build(account, { brand_kit_id: kit, input: { type: 'source', source, sample_data: { title: 'Hi' } } });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ brand_kit_id: kit, current_draft: true, published_template_id: null });
    expect(created.body.message).toMatchObject({ state: 'succeeded', phase: 'final', input_type: 'source', credits: 0, preview_id: null, failure_category: null, failure_code: null });
    expect(created.body.current_message_id).toBe(created.body.message.id);
    expect((await balances(account)).balances.trial).toBe(100);

    const draft = await api(`/v1/template-builds/${created.body.id}/draft`, { key: account.apiKey });
    expect(draft.status).toBe(200);
    expect(draft.headers.get('cache-control')).toBe('private, no-store');
    expect(draft.body).toEqual({ source, sample_data: { title: 'Hi' }, schema: null, output: { type: 'pdf' } });
    const messageDraft = await api(`/v1/template-builds/${created.body.id}/messages/${created.body.message.id}/draft`, { key: account.apiKey });
    expect(messageDraft.body).toEqual(draft.body);
    expect(messageDraft.headers.get('cache-control')).toBe('private, no-store');

    const messages = await api(`/v1/template-builds/${created.body.id}/messages`, { key: account.apiKey });
    expect(messages.body.map((message: { id: string }) => message.id)).toEqual([created.body.message.id]);
    expect((await api(`/v1/template-builds/${created.body.id}`, { key: account.apiKey })).body).toEqual(created.body);
  });

  it('takes an image output from a canvas source, and a fixed intent over it', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    const canvas = '<!doctype html><meta name="svc-canvas" content="1080x1080"><div data-svc-page="a">{{ brand.name }}</div>';
    const auto = await build(account, { brand_kit_id: kit, input_mode: 'blank', input: { type: 'source', source: canvas } });
    expect(auto.status).toBe(202);
    expect(auto.body.message.output).toEqual({ type: 'image', format: 'png', width: 1080, height: 1080 });
    const fixed = await build(account, { brand_kit_id: kit, input: { type: 'source', source, sample_data: { title: 'x' } }, output: { type: 'image', format: 'webp' } });
    expect(fixed.body.message.output).toEqual({ type: 'image', format: 'webp', width: 1200, height: 628 });
  });

  it('refuses a source that fails the saved-template checks, pointing into the input, and holds nothing', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    const error = expectError(await build(account, { brand_kit_id: kit, input: { type: 'source', source: '{% if %}' } }), 400, 'template_syntax_error');
    expect(error.details?.[0]?.field).toBe('input.source');
    const missing = expectError(await build(account, { brand_kit_id: kit, input: { type: 'source', source } }), 400, 'template_missing_data');
    expect(missing.details?.[0]?.field).toBe('input.source');
    const brandData = expectError(await build(account, { brand_kit_id: kit, input: { type: 'source', source, sample_data: { title: 'x', brand: 1 } } }), 400, 'brand_data_conflict');
    expect(brandData.details?.[0]?.field).toBe('input.sample_data/brand');
    expect(await serviceDb().templateBuild.count({ where: { accountId: account.accountId } })).toBe(0);
  });

  it('replays a repeated Idempotency-Key with 200 and refuses it for another body', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    const key = randomUUID();
    const body = { brand_kit_id: kit, input: { type: 'source', source, sample_data: { title: 'A' } } };
    const first = await build(account, body, key);
    const again = await build(account, body, key);
    expect(first.status).toBe(202);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expectError(await build(account, { ...body, input: { ...body.input, sample_data: { title: 'B' } } }, key), 409, 'idempotency_conflict');
  });

  it('requires the Idempotency-Key, the kit and a valid output intent', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    const body = { brand_kit_id: kit, input: { type: 'source', source, sample_data: { title: 'A' } } };
    expect(expectError(await build(account, body, null), 400, 'invalid_request').details).toEqual([{ field: 'Idempotency-Key', reason: 'missing field' }]);
    expectError(await build(account, { input: body.input }), 400, 'invalid_request');
    expectError(await build(account, { ...body, brand_kit_id: `kit_${'0'.repeat(32)}` }), 404, 'brand_kit_not_found');
    const half = expectError(await build(account, { ...body, output: { type: 'image', width: 800 } }), 400, 'invalid_request');
    expect(half.details?.[0]?.field).toBe('output.height');
    expectError(await build(account, { ...body, input: { type: 'prompt', prompt: 'x' }, input_mode: 'blank' }), 400, 'invalid_request');
    await api(`/v1/brand-kits/${kit}`, { method: 'DELETE', key: account.apiKey });
    expectError(await build(account, body), 409, 'brand_kit_unavailable');
  });
});

describe('AI messages without a provider', () => {
  it('answer 503 provider_unavailable before anything is reserved', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    expectError(await build(account, { brand_kit_id: kit, input: { type: 'prompt', prompt: 'An invoice' } }), 503, 'provider_unavailable');
    const created = await build(account, { brand_kit_id: kit, input: { type: 'source', source, sample_data: { title: 'A' } } });
    const edit = await api(`/v1/template-builds/${created.body.id}/messages`, {
      method: 'POST',
      key: account.apiKey,
      headers: { 'idempotency-key': randomUUID() },
      body: { input: { type: 'html', html: '<p>more</p>' } },
    });
    expectError(edit, 503, 'provider_unavailable');
    const me = await balances(account);
    expect(me.balances.trial).toBe(100);
    expect(me.reserved).toBe(0);
  });
});

describe('edits, message drafts and publication', () => {
  it('edits with a source, keeps each draft per message, and publishes versions once per draft', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    const created = await build(account, { brand_kit_id: kit, input: { type: 'source', source, sample_data: { title: 'One' } } });
    const buildId = created.body.id;
    const first = await api(`/v1/template-builds/${buildId}/publish`, { method: 'POST', key: account.apiKey });
    expect(first.status).toBe(201);
    expect(first.body.version).toBe(1);
    const repeat = await api(`/v1/template-builds/${buildId}/publish`, { method: 'POST', key: account.apiKey });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
    const template = await api(`/v1/templates/${first.body.template_id}`, { key: account.apiKey });
    expect(template.body).toMatchObject({ latest_version: 1, source });
    expect((await api(`/v1/template-builds/${buildId}`, { key: account.apiKey })).body.published_template_id).toBe(first.body.template_id);

    const second = '<!doctype html><p>{{ title }} two</p>';
    const edit = await api(`/v1/template-builds/${buildId}/messages`, {
      method: 'POST',
      key: account.apiKey,
      headers: { 'idempotency-key': 'edit-1' },
      body: { input: { type: 'source', source: second, sample_data: { title: 'Two' } } },
    });
    expect(edit.status).toBe(202);
    expect(edit.body).toMatchObject({ state: 'succeeded', credits: 0, output: { type: 'pdf' } });
    const oldDraft = await api(`/v1/template-builds/${buildId}/messages/${created.body.message.id}/draft`, { key: account.apiKey });
    expect(oldDraft.body.source).toBe(source);
    expect((await api(`/v1/template-builds/${buildId}/draft`, { key: account.apiKey })).body.source).toBe(second);

    const next = await api(`/v1/template-builds/${buildId}/publish`, { method: 'POST', key: account.apiKey });
    expect(next.status).toBe(201);
    expect(next.body).toEqual({ template_id: first.body.template_id, version: 2 });
    const messages = await api(`/v1/template-builds/${buildId}/messages`, { key: account.apiKey });
    expect(messages.body.map((message: { id: string }) => message.id)).toEqual([created.body.message.id, edit.body.id]);

    await api(`/v1/templates/${first.body.template_id}`, { method: 'DELETE', key: account.apiKey });
    await api(`/v1/template-builds/${buildId}/messages`, {
      method: 'POST',
      key: account.apiKey,
      headers: { 'idempotency-key': 'edit-2' },
      body: { input: { type: 'source', source: '<p>three</p>' } },
    });
    expectError(await api(`/v1/template-builds/${buildId}/publish`, { method: 'POST', key: account.apiKey }), 409, 'operation_conflict');
  });

  it('answers 404 for foreign, unknown and malformed builds and messages, and for drafts that do not exist', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const kit = await newKit(owner);
    const created = await build(owner, { brand_kit_id: kit, input: { type: 'source', source, sample_data: { title: 'A' } } });
    for (const id of [created.body.id, `build_${'0'.repeat(32)}`, 'nope']) {
      expectError(await api(`/v1/template-builds/${id}`, { key: other.apiKey }), 404, 'template_build_not_found');
    }
    expectError(await api(`/v1/template-builds/${created.body.id}/messages/msg_${'0'.repeat(32)}/draft`, { key: owner.apiKey }), 404, 'template_build_not_found');
    expectError(await api(`/v1/template-builds/${created.body.id}/messages/${created.body.message.id}`, { method: 'DELETE', key: owner.apiKey }), 409, 'operation_conflict');
  });
});

describe('credits of AI builds', () => {
  it('answers 402 ai_needs_paid_credits when only free monthly credits could pay, holding nothing', async () => {
    const account = await newAccount({ plan: 'free', credits: 500, bucket: 'free_monthly' });
    const kit = await newKit(account);
    // the provider is checked first on this service, so the refusal shows on a service with one (template-builds-ai)
    expectError(await build(account, { brand_kit_id: kit, input: { type: 'prompt', prompt: 'x' } }), 503, 'provider_unavailable');
    expect((await balances(account)).balances.free_monthly).toBe(500);
  });
});

describe('chat on a saved template with a source', () => {
  it('applies a source message as the next version at 0 credits, and answers the chat errors', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    const template = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<p>one</p>' } });
    const path = `/v1/templates/${template.body.id}/messages`;
    const send = (body: unknown, key = randomUUID()) => api(path, { method: 'POST', key: account.apiKey, headers: { 'idempotency-key': key }, body });
    expectError(await send({ input: { type: 'prompt', prompt: 'x' }, brand_kit_id: kit }), 503, 'provider_unavailable');
    const sent = await send({ input: { type: 'source', source: '<p>two</p>' }, brand_kit_id: kit });
    expect(sent.status).toBe(202);
    expect(sent.body.message).toMatchObject({ state: 'succeeded', credits: 0 });
    expect(sent.body.chat).toEqual({ template_id: template.body.id, brand_kit_id: kit, current_message_id: sent.body.message.id, current_message_reviewed: false });
    const messagePath = `${path}/${sent.body.message.id}`;
    expectError(await api(`${messagePath}/image-proposal`, { key: account.apiKey }), 404, 'not_found');
    const applied = await api(`${messagePath}/apply`, { method: 'POST', key: account.apiKey });
    expect(applied.status).toBe(201);
    expect(applied.body).toMatchObject({ version: 2, source: '<p>two</p>' });
    expect((await api(messagePath, { key: account.apiKey })).body.chat.current_message_reviewed).toBe(true);
    expectError(await api(messagePath, { method: 'DELETE', key: account.apiKey }), 409, 'operation_conflict');
    expectError(await api(`${path}/msg_${'0'.repeat(32)}`, { key: account.apiKey }), 404, 'not_found');
    expectError(await api(`${messagePath}/apply`, { method: 'POST', key: account.apiKey, body: { save: 'yes' } }), 400, 'invalid_request');
    expect((await balances(account)).balances.trial).toBe(100);
    await api(`/v1/templates/${template.body.id}`, { method: 'DELETE', key: account.apiKey });
    expectError(await send({ input: { type: 'source', source: '<p>three</p>' } }), 404, 'template_not_found');
  });

  it('keeps the newest 100 messages of a chat', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    const template = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<p>one</p>' } });
    const send = (source: string) =>
      api(`/v1/templates/${template.body.id}/messages`, { method: 'POST', key: account.apiKey, headers: { 'idempotency-key': randomUUID() }, body: { input: { type: 'source', source }, brand_kit_id: kit } });
    const first = await send('<p>first</p>');
    const chat = await serviceDb().templateBuild.findUniqueOrThrow({ where: { templateId: template.body.id } });
    // 99 older settled messages after the first, as a long chat would leave them
    const base = Date.now() - 60_000;
    await serviceDb().templateMessage.createMany({
      data: Array.from({ length: 99 }, (_, index) => ({
        id: `msg_${(index + 1).toString(16).padStart(32, '0')}`,
        accountId: account.accountId,
        buildId: chat.id,
        brandKitId: kit,
        state: 'failed' as const,
        inputType: 'prompt',
        input: { type: 'prompt', prompt: 'old' },
        credits: 25,
        maxReviews: 0,
        createdAt: new Date(base + index),
      })),
    });
    await serviceDb().templateMessage.update({ where: { id: first.body.message.id }, data: { createdAt: new Date(base - 1000) } });
    const latest = await send('<p>latest</p>');
    expect(latest.status).toBe(202);
    const left = await serviceDb().templateMessage.findMany({ where: { buildId: chat.id }, select: { id: true } });
    expect(left).toHaveLength(100);
    expect(left.map((row) => row.id)).not.toContain(first.body.message.id);
    expect(left.map((row) => row.id)).toContain(latest.body.message.id);
  });

  it('rate-limits new chat messages but not replays', async () => {
    const account = await newAccount();
    const kit = await newKit(account);
    const template = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<p>one</p>' } });
    const send = (key: string) =>
      api(`/v1/templates/${template.body.id}/messages`, { method: 'POST', key: account.apiKey, headers: { 'idempotency-key': key }, body: { input: { type: 'source', source: '<p>x</p>' }, brand_kit_id: kit } });
    expect((await send('first')).status).toBe(202);
    await emptyBucket('ai_chat_message', account);
    const limited = await send('second');
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await send('first')).status).toBe(200);
  });
});

const securityBody = { brand_kit_id: `kit_${'0'.repeat(32)}`, input: { type: 'source', source: '<p>x</p>' } };
const arrangeBuild = async (account: TestAccount) => {
  const kit = await newKit(account);
  return (await build(account, { brand_kit_id: kit, input: { type: 'source', source: '<p>x</p>' } })).body.id as string;
};
const owned = { arrange: arrangeBuild, missingId: `build_${'0'.repeat(32)}`, notFoundCode: 'template_build_not_found' };
securitySuite('POST /v1/template-builds', { method: 'POST', path: () => '/v1/template-builds', body: securityBody, headers: { 'idempotency-key': 'k' } });
securitySuite('GET /v1/template-builds/{id}', { method: 'GET', path: (id) => `/v1/template-builds/${id}`, ...owned });
securitySuite('GET /v1/template-builds/{id}/messages', { method: 'GET', path: (id) => `/v1/template-builds/${id}/messages`, ...owned });
securitySuite('POST /v1/template-builds/{id}/messages', {
  method: 'POST',
  path: (id) => `/v1/template-builds/${id}/messages`,
  body: { input: { type: 'source', source: '<p>y</p>' } },
  headers: { 'idempotency-key': 'k' },
  ...owned,
});
securitySuite('GET /v1/template-builds/{id}/draft', { method: 'GET', path: (id) => `/v1/template-builds/${id}/draft`, ...owned });
securitySuite('POST /v1/template-builds/{id}/publish', { method: 'POST', path: (id) => `/v1/template-builds/${id}/publish`, ...owned });

const arrangeChatMessage = async (account: TestAccount) => {
  const kit = await newKit(account);
  const template = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<p>one</p>' } });
  const sent = await api(`/v1/templates/${template.body.id}/messages`, {
    method: 'POST',
    key: account.apiKey,
    headers: { 'idempotency-key': 'k' },
    body: { input: { type: 'source', source: '<p>two</p>' }, brand_kit_id: kit },
  });
  return `${template.body.id}/messages/${sent.body.message.id}`;
};
const chatOwned = { arrange: arrangeChatMessage, missingId: `tpl_${'0'.repeat(32)}/messages/msg_${'0'.repeat(32)}` };
securitySuite('GET /v1/templates/{id}/messages/{message_id}', { method: 'GET', path: (id) => `/v1/templates/${id}`, ...chatOwned });
securitySuite('POST /v1/templates/{id}/messages/{message_id}/apply', { method: 'POST', path: (id) => `/v1/templates/${id}/apply`, body: { save: false }, ...chatOwned });
securitySuite('POST /v1/ai-image-proposals/{message_id}/apply', {
  method: 'POST',
  path: (id) => `/v1/ai-image-proposals/${id.split('/').pop()}/apply`,
  ...chatOwned,
});
