// Renders from saved template versions (the saved render request shapes, the PDF render routes and the versioning rule).
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
import { imageInfo, pdfInfo, pdfText, renderOk } from './support/files.ts';

async function create(key: string, body: Record<string, unknown>) {
  const response = await api('/v1/templates', { method: 'POST', key, body });
  if (response.status !== 201) throw new Error(`template not created: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body;
}
const publish = (key: string, id: string, body: Record<string, unknown>) => api(`/v1/templates/${id}/versions`, { method: 'POST', key, body });
const trialBalance = async (accountId: string) =>
  (await serviceDb().creditBalance.findFirst({ where: { accountId, bucket: 'trial' } }))?.balance;

const schema = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } };

describe('saved-template renders', () => {
  it('renders a pinned version or the latest one, records it on the job and names the file after the template', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey, { name: 'Invoice (Acme)', source: '<h1>First {{ name }}</h1>', schema });
    expect((await publish(account.apiKey, template.id, { source: '<h1>Second {{ name }}</h1>', schema })).status).toBe(201);

    const pinned = await renderOk('pdf', account.apiKey, { template_id: template.id, version: 1, data: { name: 'Ann' } });
    expect(pdfText(pinned.file.bytes)).toContain('First Ann');
    expect(pinned.job.template).toEqual({ id: template.id, version: 1 });
    expect(pinned.file.disposition).toMatch(/^attachment; filename="Invoice -Acme-?-\d{4}-\d{2}-\d{2}\.pdf"$/);

    const latest = await renderOk('pdf', account.apiKey, { template_id: template.id, data: { name: 'Bob' } });
    expect(pdfText(latest.file.bytes)).toContain('Second Bob');
    expect(latest.job.template).toEqual({ id: template.id, version: 2 });
    const stored = await serviceDb().renderJob.findUniqueOrThrow({ where: { id: latest.job.id } });
    expect([stored.templateId, stored.templateVersion]).toEqual([template.id, 2]);

    const history = await api(`/v1/pdf?q=${encodeURIComponent('acme')}`, { key: account.apiKey });
    expect(history.body.items.map((item: { id: string }) => item.id).sort()).toEqual([pinned.job.id, latest.job.id].sort());
    expect(history.body.items[0].template).toEqual(expect.objectContaining({ id: template.id }));
    expect((await api('/v1/pdf?q=nomatch', { key: account.apiKey })).body.items).toEqual([]);
  });

  it('validates data against the version schema before evaluation and charges nothing on failure', async () => {
    const account = await newAccount({ plan: 'free', credits: 1 });
    const template = await create(account.apiKey, { source: '<p>{{ name }}</p>', schema });
    const invalid = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { template_id: template.id, data: { name: '' } } });
    expect(expectError(invalid, 400, 'template_data_invalid').details).toEqual([{ field: 'data/name', reason: 'Add a value.' }]);
    const missing = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { template_id: template.id, data: {}, image: { format: 'png' } } });
    expect(expectError(missing, 400, 'template_data_invalid').details).toEqual([{ field: 'data/name', reason: 'A required value is missing.' }]);
    expect(await trialBalance(account.accountId)).toBe(1);
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);

    const noSchema = await create(account.apiKey, { source: '<p>{{ missing.value }}</p>' });
    const evaluation = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { template_id: noSchema.id, data: {} } });
    expect(expectError(evaluation, 400, 'template_missing_data').details?.[0]).toMatchObject({ field: 'template_id', line: 1 });
  });

  it('refuses mixed shapes with field details', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey, { source: '<p>x</p>' });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ html: '<p>x</p>', template_id: template.id }, 'template_id', 'unknown field'],
      [{ html: '<p>x</p>', data: {}, version: 1 }, 'version', 'unknown field'],
      [{ template_id: template.id }, 'data', 'missing field'],
      [{ template_id: template.id, data: {}, version: 0 }, 'version', 'invalid value'],
      [{ template_id: 'tpl_x', data: {} }, 'template_id', 'invalid value'],
      [{ data: {} }, 'html', 'missing field'],
    ];
    for (const [body, field, reason] of cases) {
      const error = expectError(await api('/v1/pdf', { method: 'POST', key: account.apiKey, body }), 400, 'invalid_request');
      expect(error.details, JSON.stringify(body)).toContainEqual({ field, reason });
    }
    const sized = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { html: 'x', size_id: 'square', image: { format: 'png' } } });
    expect(expectError(sized, 400, 'invalid_request').details).toContainEqual({ field: 'size_id', reason: 'unknown field' });
    const pdfSize = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { template_id: template.id, data: {}, size_id: 'square' } });
    expect(expectError(pdfSize, 400, 'invalid_request').details).toContainEqual({ field: 'size_id', reason: 'unknown field' });
  });

  it('answers 404 template_not_found for foreign, unknown and archived templates and unknown versions', async () => {
    const account = await newAccount();
    const stranger = await newAccount();
    const template = await create(account.apiKey, { source: '<p>x</p>' });
    const render = (key: string, body: Record<string, unknown>) => api('/v1/pdf', { method: 'POST', key, body: { data: {}, ...body } });
    expect(expectError(await render(stranger.apiKey, { template_id: template.id }), 404, 'template_not_found').details).toEqual([{ field: 'template_id', reason: 'invalid value' }]);
    expectError(await render(account.apiKey, { template_id: `tpl_${'0'.repeat(32)}` }), 404, 'template_not_found');
    expect(expectError(await render(account.apiKey, { template_id: template.id, version: 2 }), 404, 'template_not_found').details).toEqual([{ field: 'version', reason: 'invalid value' }]);
    await api(`/v1/templates/${template.id}`, { method: 'DELETE', key: account.apiKey });
    expectError(await render(account.apiKey, { template_id: template.id, version: 1 }), 404, 'template_not_found');
    await api(`/v1/templates/${template.id}`, { method: 'PATCH', key: account.apiKey, body: { archived_at: null } });
    // admitted: 202 while queued or running, 200 if it already ended (the contract's render job lifecycle)
    expect([200, 202]).toContain((await render(account.apiKey, { template_id: template.id, wait: false })).status);
  });

  it('renders a saved size with its source and data overrides at exactly its dimensions', async () => {
    const account = await newAccount();
    const page = (width: number, height: number, label: string) =>
      `<meta name="svc-canvas" content="${width}x${height}"><style>body{margin:0}</style><div data-svc-page="p" style="width:${width}px;height:${height}px">${label} {{ title }}</div>`;
    const template = await create(account.apiKey, {
      source: page(800, 600, 'Original'),
      input_mode: 'blank',
      schema: { type: 'object', required: ['title'], additionalProperties: false, properties: { title: { type: 'string' } } },
      sizes: [{ id: 'story', name: 'Story', width: 540, height: 960, status: 'auto', source: page(540, 960, 'Story'), data_overrides: { title: 'Overridden' } }],
    });
    const story = await renderOk('image', account.apiKey, { template_id: template.id, size_id: 'story', data: { title: 'Given' }, image: { format: 'png' } });
    expect(await imageInfo(story.file.bytes)).toMatchObject({ format: 'png', width: 540, height: 960 });
    const original = await renderOk('image', account.apiKey, { template_id: template.id, size_id: 'original', data: { title: 'Given' }, image: { format: 'jpeg', width: 800 } });
    expect(await imageInfo(original.file.bytes)).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
    const pdf = await renderOk('pdf', account.apiKey, { template_id: template.id, data: { title: 'Given' } });
    expect(pdfText(pdf.file.bytes)).toContain('Original Given');

    const render = (body: Record<string, unknown>) => api('/v1/image', { method: 'POST', key: account.apiKey, body: { template_id: template.id, data: { title: 'x' }, ...body } });
    expect(expectError(await render({ size_id: 'story', image: { format: 'png', width: 541 } }), 400, 'invalid_request').details).toEqual([{ field: 'image.width', reason: 'invalid value' }]);
    expect(expectError(await render({ size_id: 'story', image: { format: 'png', height: 961 } }), 400, 'invalid_request').details).toEqual([{ field: 'image.height', reason: 'invalid value' }]);
    expect(expectError(await render({ size_id: 'square', image: { format: 'png' } }), 400, 'invalid_request').details).toEqual([{ field: 'size_id', reason: 'invalid value' }]);
    expect(expectError(await render({ size_id: 'Story', image: { format: 'png' } }), 400, 'invalid_request').details).toEqual([{ field: 'size_id', reason: 'invalid value' }]);
  });

  it('holds the data, and a saved size\'s data with its overrides merged, to the data limits before the schema and evaluation', async () => {
    const account = await newAccount({ plan: 'free', credits: 1 });
    const page = (width: number) => `<meta name="svc-canvas" content="${width}x300"><div data-svc-page="p" style="width:${width}px;height:300px">{{ title }}</div>`;
    const template = await create(account.apiKey, {
      source: page(400),
      input_mode: 'blank',
      schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
      sizes: [{ id: 'wide', name: 'Wide', width: 600, height: 300, status: 'auto', source: page(600), data_overrides: { extra: true } }],
    });
    const render = (body: Record<string, unknown>) => api('/v1/image', { method: 'POST', key: account.apiKey, body: { template_id: template.id, image: { format: 'png' }, ...body } });

    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let level = 0; level < 40; level++) deep = (deep.next = {}) as Record<string, unknown>;
    // no title either: the limits answer before the schema walks the data
    expect(expectError(await render({ data: root }), 400, 'template_data_depth_limit').details?.[0]?.field).toMatch(/^data(\/next)+$/);

    // 10,000 members are within the limit on their own; the size's override makes one more
    const full: Record<string, unknown> = { title: 'Full' };
    for (let index = 1; index < 10_000; index++) full[`k${index}`] = index;
    expect(expectError(await render({ size_id: 'wide', data: full }), 400, 'template_data_collection_limit').details).toEqual([{ field: 'data', reason: 'Use a shorter value.' }]);
    expect(await trialBalance(account.accountId)).toBe(1);
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
    const original = await renderOk('image', account.apiKey, { template_id: template.id, size_id: 'original', data: full, image: { format: 'png' } });
    expect(await imageInfo(original.file.bytes)).toMatchObject({ width: 400, height: 300 });
  });

  it('prints the selected canvas pages of a saved version in the requested order', async () => {
    const account = await newAccount();
    const pages = ['alpha', 'bravo', 'charlie'].map((id) => `<section data-svc-page="${id}" data-svc-page-name="${id}" style="width:800px;height:600px">Page ${id.toUpperCase()} {{ n }}</section>`);
    const template = await create(account.apiKey, { input_mode: 'blank', source: `<meta name="svc-canvas" content="800x600">${pages.join('')}` });
    const { file } = await renderOk('pdf', account.apiKey, { template_id: template.id, data: { n: 7 }, pages: ['charlie', 'alpha'] });
    expect(pdfInfo(file.bytes).pages).toBe(2);
    const text = pdfText(file.bytes);
    expect(text.indexOf('CHARLIE 7')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('CHARLIE 7')).toBeLessThan(text.indexOf('ALPHA 7'));
    expect(text).not.toContain('BRAVO');
    const unknown = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { template_id: template.id, data: { n: 1 }, pages: ['alpha', 'delta'] } });
    expect(expectError(unknown, 400, 'invalid_request').details).toEqual([{ field: 'pages.1', reason: 'invalid value' }]);
  });

  it('fingerprints idempotent requests with the resolved version', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey, { source: '<p>{{ name }}</p>' });
    const send = (body: Record<string, unknown>) =>
      api('/v1/pdf', { method: 'POST', key: account.apiKey, headers: { 'idempotency-key': 'saved-1' }, body: { template_id: template.id, data: { name: 'a' }, wait: false, ...body } });
    const first = await send({});
    expect([200, 202]).toContain(first.status);
    expect((await send({})).body.id).toBe(first.body.id);
    expect((await send({ version: 1 })).body.id).toBe(first.body.id);
    await publish(account.apiKey, template.id, { source: '<p>new {{ name }}</p>' });
    // the same body now resolves version 2: a different logical request
    expectError(await send({}), 409, 'idempotency_conflict');
    expect((await send({ version: 1 })).body.id).toBe(first.body.id);
  });

  /**
   * Holds the account row lock that admission takes first, so the render waits after its
   * version was resolved and its template evaluated; meanwhile `change` commits.
   */
  async function raceAdmission(account: { apiKey: string; accountId: string }, body: Record<string, unknown>, change: () => Promise<unknown>) {
    return serviceDb().$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${account.accountId} FOR UPDATE`;
        const render = api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { ...body, wait: false } });
        for (let waited = 0; waited < 15_000; waited += 50) {
          const [row] = await serviceDb().$queryRaw<{ waiting: number }[]>`
            SELECT count(*)::int AS waiting FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM accounts WHERE id%FOR NO KEY UPDATE%'`;
          if (row && row.waiting > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await change();
        return { render }; // not the promise itself: the transaction must commit before the render can go on
      },
      { timeout: 30_000 },
    ).then(({ render }) => render);
  }

  it('answers 409 template_version_changed when a new version lands between resolution and admission', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey, { source: '<p>v1 {{ name }}</p>' });
    const answer = await raceAdmission(account, { template_id: template.id, data: { name: 'x' } }, () =>
      publish(account.apiKey, template.id, { source: '<p>v2 {{ name }}</p>' }),
    );
    expectError(answer, 409, 'template_version_changed');
    // a pinned version is not changed by newer versions
    const pinned = await raceAdmission(account, { template_id: template.id, version: 1, data: { name: 'x' } }, () =>
      publish(account.apiKey, template.id, { source: '<p>v3 {{ name }}</p>' }),
    );
    expect(pinned.status).toBe(202);
    expect(pinned.body.template).toEqual({ id: template.id, version: 1 });
  });

  it('answers 409 template_version_changed when the template is archived before admission completes', async () => {
    const account = await newAccount();
    const template = await create(account.apiKey, { source: '<p>{{ name }}</p>' });
    const answer = await raceAdmission(account, { template_id: template.id, version: 1, data: { name: 'x' } }, () =>
      api(`/v1/templates/${template.id}`, { method: 'DELETE', key: account.apiKey }),
    );
    expectError(answer, 409, 'template_version_changed');
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
  });
});
