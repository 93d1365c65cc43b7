import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
import { pdfText, renderOk } from './support/files.ts';

describe('stateless templates', () => {
  it('evaluates the template with its data before rendering, escaping values', async () => {
    const account = await newAccount();
    const source = '<h1>Invoice {{ number }}</h1>{% for line in lines %}<p>{{ line.item }}: {{ line.price }}</p>{% endfor %}<p>{{ note }}</p>';
    const data = { number: 77, lines: [{ item: 'Widget', price: '9.00' }, { item: 'Gadget', price: '3.50' }], note: '<b>not bold</b>' };
    const { file } = await renderOk('pdf', account.apiKey, { html: source, data });
    const text = pdfText(file.bytes);
    expect(text).toContain('Invoice 77');
    expect(text).toContain('Widget: 9.00');
    expect(text).toContain('Gadget: 3.50');
    expect(text).toContain('<b>not bold</b>');
    const stored = await serviceDb().renderJob.findFirstOrThrow({ where: { accountId: account.accountId } });
    expect(stored.templateId).toBeNull();
  });

  it('answers template errors with their codes, line and column, and charges nothing', async () => {
    const account = await newAccount({ plan: 'free', credits: 1 });
    const missing = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>ok</p>\n<p>{{ customer.name }}</p>', data: {} } });
    const missingError = expectError(missing, 400, 'template_missing_data');
    expect(missingError.details?.[0]).toMatchObject({ field: 'html', reason: 'Declare this variable before using it.', line: 2 });

    const syntax = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '{% for x in items %}<p>{{ x }}</p>', data: { items: [] } } });
    expect(expectError(syntax, 400, 'template_syntax_error').details?.[0]?.field).toBe('html');

    const secret = 'TOP-SECRET-VALUE';
    const leak = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: `{{ ${secret.toLowerCase().replace(/-/g, '_')} }}`, data: { other: secret } } });
    // the message names the template's own variable, never a value from the data
    expect(expectError(leak, 400, 'template_missing_data').message).toContain('top_secret_value');
    expect(leak.text).not.toContain(secret);

    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let level = 0; level < 200; level++) deep = (deep.next = {}) as Record<string, unknown>;
    const tooDeep = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '{{ next }}', data: root } });
    // "data" followed by a JSON Pointer to where the limit was crossed
    expect(expectError(tooDeep, 400, 'template_data_depth_limit').details?.[0]?.field).toMatch(/^data(\/next)+$/);

    const bigSource = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: 'x'.repeat(1_048_577), data: {} } });
    expect(expectError(bigSource, 400, 'invalid_request').details).toContainEqual({ field: 'html', reason: 'invalid value' });

    const escape = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: "{{ ''.constructor.constructor('return process')().exit(1) }}", data: {} } });
    expect(escape.status).toBe(400);
    expect((await api('/v1/openapi.json')).status).toBe(200); // the web process is still alive

    const balance = await serviceDb().creditBalance.findFirst({ where: { accountId: account.accountId, bucket: 'trial' } });
    expect(balance?.balance).toBe(1);
  });
});
