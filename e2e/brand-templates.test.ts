// Brand values in templates (the render request rules and the contract's brand values): renders, saved templates and previews read brand.*
// from the selected kit; the values are captured when the render is created.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount } from './support/api.ts';
import { download, pdfText, renderOk } from './support/files.ts';
import { until } from './support/until.ts';

async function kit(key: string, body: Record<string, unknown>) {
  const response = await api('/v1/brand-kits', { method: 'POST', key, body });
  if (response.status !== 201) throw new Error(`kit not created: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body as { id: string };
}

async function savedTemplate(key: string, body: Record<string, unknown>) {
  const response = await api('/v1/templates', { method: 'POST', key, body });
  if (response.status !== 201) throw new Error(`template not created: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body as { id: string };
}

/** The colour of the image's top-left pixel as #rrggbb. */
async function firstPixel(bytes: Buffer): Promise<string> {
  const { data } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return `#${[data[0], data[1], data[2]].map((value) => value!.toString(16).padStart(2, '0')).join('')}`;
}

const filled = (colour: string) => `<html><body style="margin:0;background:${colour}"></body></html>`;
const png = { format: 'png', width: 320, height: 200 };
const preview = (key: string, body: Record<string, unknown>) => api('/v1/templates/preview', { method: 'POST', key, body });

describe('brand values in templates', () => {
  it('renders a PNG in the primary colour and a PDF with the name and palette, html forced through the template engine', async () => {
    const account = await newAccount();
    const brand = await kit(account.apiKey, { name: 'Acme Rockets', colours: ['#1E90FF', '#FF8800', '#22AA44'] });
    const image = await renderOk('image', account.apiKey, { html: filled('{{ brand.colours.primary }}'), brand_kit_id: brand.id, image: png });
    expect(await firstPixel(image.file.bytes)).toBe('#1e90ff');

    const source = '<h1>{{ brand.name }}</h1><p>Palette {{ brand.palette | join(" ") }}</p><p>Accent {{ brand.colours.accent }} {{ 6 * 7 }}</p>';
    const pdf = await renderOk('pdf', account.apiKey, { html: source, brand_kit_id: brand.id });
    const text = pdfText(pdf.file.bytes);
    expect(text).toContain('Acme Rockets');
    expect(text).toContain('Palette #1e90ff #ff8800 #22aa44');
    expect(text).toContain('Accent #22aa44 42');
    // without a kit the same html is raw, not evaluated
    expect(pdfText((await renderOk('pdf', account.apiKey, { html: '<p>{{ 6 * 7 }}</p>' })).file.bytes)).toContain('{{ 6 * 7 }}');
  });

  it('supplies only present roles, and logos and fonts as empty lists (preview)', async () => {
    const account = await newAccount();
    const brand = await kit(account.apiKey, { name: 'Two', colours: ['#000001', '#000002'] });
    const source =
      '{{ brand.colours.primary }}|{{ brand.colours.secondary }}|{{ brand.colours.accent is defined }}|' +
      '{{ brand.logo is defined }}|{{ brand.logos | length }}|{{ brand.fonts | length }}|{{ brand.palette | length }}|{{ title }}';
    const response = await preview(account.apiKey, { source, data: { title: 'T' }, brand_kit_id: brand.id });
    expect(response.status).toBe(200);
    expect(response.body.html).toBe('#000001|#000002|false|false|0|0|2|T');
  });

  it('uses a saved source default kit, which brand_kit_id overrides and null switches off', async () => {
    const account = await newAccount();
    const blue = await kit(account.apiKey, { name: 'Blue', colours: ['#0000ff'] });
    const red = await kit(account.apiKey, { name: 'Red', colours: ['#ff0000'] });
    const source = `<meta name="svc-brand-kit" content="${blue.id}">${filled('{% if brand is defined %}{{ brand.colours.primary }}{% else %}#00ff00{% endif %}')}`;
    const template = await savedTemplate(account.apiKey, { source });
    const byDefault = await renderOk('image', account.apiKey, { template_id: template.id, data: {}, image: png });
    expect(await firstPixel(byDefault.file.bytes)).toBe('#0000ff');
    const overridden = await renderOk('image', account.apiKey, { template_id: template.id, data: {}, brand_kit_id: red.id, image: png });
    expect(await firstPixel(overridden.file.bytes)).toBe('#ff0000');
    const none = await renderOk('image', account.apiKey, { template_id: template.id, data: {}, brand_kit_id: null, image: png });
    expect(await firstPixel(none.file.bytes)).toBe('#00ff00');
    // the preview reads the same default
    expect((await preview(account.apiKey, { source: `<meta name="svc-brand-kit" content="${red.id}">{{ brand.name }}`, data: {} })).body.html).toContain('Red');
  });

  it('captures the kit when the render is created: a later change does not reach a queued render', async () => {
    const account = await newAccount();
    const brand = await kit(account.apiKey, { name: 'Capture', colours: ['#123456'] });
    const created = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { html: filled('{{ brand.colours.primary }}'), brand_kit_id: brand.id, image: png, wait: false } });
    // 202 while queued or running, 200 if it already ended (the contract's render job lifecycle)
    expect([200, 202]).toContain(created.status);
    expect((await api(`/v1/brand-kits/${brand.id}`, { method: 'PATCH', key: account.apiKey, body: { colours: ['#654321'] } })).status).toBe(200);
    const job = await until(async () => {
      const read = await api(`/v1/image/${created.body.id}`, { key: account.apiKey });
      return read.body.status === 'succeeded' ? read.body : null;
    });
    expect(await firstPixel((await download(job)).bytes)).toBe('#123456');
  });

  it('names the kit values in the idempotency fingerprint', async () => {
    const account = await newAccount();
    const brand = await kit(account.apiKey, { name: 'Idem', colours: ['#111111'] });
    const body = { html: filled('{{ brand.colours.primary }}'), brand_kit_id: brand.id, image: png, wait: false };
    const headers = { 'idempotency-key': 'brand-1' };
    const first = await api('/v1/image', { method: 'POST', key: account.apiKey, body, headers });
    const replay = await api('/v1/image', { method: 'POST', key: account.apiKey, body, headers });
    expect(replay.body.id).toBe(first.body.id);
    await api(`/v1/brand-kits/${brand.id}`, { method: 'PATCH', key: account.apiKey, body: { colours: ['#222222'] } });
    expectError(await api('/v1/image', { method: 'POST', key: account.apiKey, body, headers }), 409, 'idempotency_conflict');
  });

  it('answers brand_data_conflict when data.brand is sent with a kit, and validates customer data before brand is added', async () => {
    const account = await newAccount();
    const brand = await kit(account.apiKey, { name: 'Conflict' });
    const conflict = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '{{ brand.name }}', data: { brand: 'mine' }, brand_kit_id: brand.id } });
    expect(expectError(conflict, 400, 'brand_data_conflict').details).toEqual([{ field: 'data/brand', reason: 'invalid value' }]);
    expectError(await preview(account.apiKey, { source: 'x', data: { brand: 1 }, brand_kit_id: brand.id }), 400, 'brand_data_conflict');
    const template = await savedTemplate(account.apiKey, { source: '{{ brand.name }} {{ title }}', schema: { type: 'object', additionalProperties: false, properties: { title: { type: 'string' } } } });
    expectError(await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { template_id: template.id, data: { brand: {} }, brand_kit_id: brand.id } }), 400, 'brand_data_conflict');
    const ok = await renderOk('pdf', account.apiKey, { template_id: template.id, data: { title: 'Fine' }, brand_kit_id: brand.id });
    expect(pdfText(ok.file.bytes)).toContain('Conflict Fine');
    // without a kit, brand is ordinary customer data
    expect((await preview(account.apiKey, { source: '{{ brand }}', data: { brand: 'mine' } })).body.html).toBe('mine');
  });

  it('answers brand_kit_not_found for foreign and missing kits, brand_kit_unavailable for archived ones', async () => {
    const account = await newAccount();
    const stranger = await newAccount();
    const foreign = await kit(stranger.apiKey, { name: 'Theirs' });
    const missing = `kit_${'0'.repeat(32)}`;
    for (const id of [foreign.id, missing]) {
      const refused = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { html: 'x', brand_kit_id: id, image: png } });
      expect(expectError(refused, 404, 'brand_kit_not_found').details).toEqual([{ field: 'brand_kit_id', reason: 'invalid value' }]);
      expectError(await preview(account.apiKey, { source: 'x', data: {}, brand_kit_id: id }), 404, 'brand_kit_not_found');
    }
    const meta = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: `<meta name="svc-brand-kit" content="${foreign.id}">x`, data: {} } });
    expect(expectError(meta, 404, 'brand_kit_not_found').details).toEqual([{ field: 'html', reason: 'invalid value' }]);

    const archived = await kit(account.apiKey, { name: 'Old' });
    await api(`/v1/brand-kits/${archived.id}`, { method: 'DELETE', key: account.apiKey });
    expectError(await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: 'x', brand_kit_id: archived.id } }), 409, 'brand_kit_unavailable');
    expectError(await preview(account.apiKey, { source: 'x', data: {}, brand_kit_id: archived.id }), 409, 'brand_kit_unavailable');
    const template = await savedTemplate(account.apiKey, { source: `<meta name="svc-brand-kit" content="${archived.id}">x` });
    const bySaved = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { template_id: template.id, data: {} } });
    expect(expectError(bySaved, 409, 'brand_kit_unavailable').details).toEqual([{ field: 'template_id', reason: 'invalid value' }]);
  });

  it('holds html to the 1 MiB template limit when a kit is named, even without data', async () => {
    const account = await newAccount();
    const brand = await kit(account.apiKey, { name: 'Big' });
    const html = `<p>${'x'.repeat(1_048_577)}</p>`;
    const refused = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html, brand_kit_id: brand.id } });
    expect(expectError(refused, 400, 'invalid_request').details).toContainEqual({ field: 'html', reason: 'invalid value' });
  });
});
