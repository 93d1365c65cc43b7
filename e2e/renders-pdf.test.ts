import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
import { download, opensWithoutPassword, pdfInfo, pdfText, renderOk } from './support/files.ts';
import { gqlError, operatorToken } from './support/graphql.ts';

const mmToPt = (mm: number) => (mm / 25.4) * 72;

describe('POST /v1/pdf', () => {
  it('renders raw HTML to an A4 PDF, settles one credit and serves the file through a signed link', async () => {
    const account = await newAccount({ plan: 'free', credits: 3 });
    const { job, file } = await renderOk('pdf', account.apiKey, { html: '<h1>Invoice 1042</h1><p>Total due: 12.50 EUR</p>', reference: 'inv-1042' });
    expect(job).toMatchObject({ status: 'succeeded', credit: 'settled', template: null, error: null, reference: 'inv-1042' });
    expect(job.id).toMatch(/^pdf_[0-9a-f]{32}$/);
    expect(job.finished_at).not.toBeNull();
    expect(job.artifact).toMatchObject({ media_type: 'application/pdf', removed_reason: null });
    expect(job.artifact.byte_size).toBe(file.bytes.length);
    expect(job.artifact.sha256).toBe((await import('node:crypto')).createHash('sha256').update(file.bytes).digest('hex'));
    expect(new Date(job.artifact.expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    expect(file.status).toBe(200);
    expect(file.contentType).toBe('application/pdf');
    expect(file.disposition).toMatch(/^attachment; filename="html-render-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const info = pdfInfo(file.bytes);
    expect(info.pages).toBe(1);
    expect(info.width).toBeCloseTo(mmToPt(210), 0);
    expect(info.height).toBeCloseTo(mmToPt(297), 0);
    expect(pdfText(file.bytes)).toContain('Invoice 1042');
    const balance = await serviceDb().creditBalance.findFirst({ where: { accountId: account.accountId, bucket: 'trial' } });
    expect(balance?.balance).toBe(2);
  });

  it('applies format, landscape, custom sizes, metadata, filename and a header and footer', async () => {
    const account = await newAccount();
    const letter = await renderOk('pdf', account.apiKey, { html: '<p>Letter</p>', pdf: { format: 'Letter', landscape: true }, filename: 'Quarterly report.v2' });
    const letterInfo = pdfInfo(letter.file.bytes);
    expect(letterInfo.width).toBeCloseTo(792, 0);
    expect(letterInfo.height).toBeCloseTo(612, 0);
    expect(letter.file.disposition).toBe('attachment; filename="Quarterly report.v2.pdf"');

    const custom = await renderOk('pdf', account.apiKey, {
      html: '<p>Custom</p>',
      pdf: { width: '100.5mm', height: '2in', margins: { top: '5mm', left: '0.25in' }, title: 'Receipt', author: 'Billing Team', subject: 'Order 7' },
    });
    const customInfo = pdfInfo(custom.file.bytes);
    expect(customInfo.width).toBeCloseTo(mmToPt(100.5), 0);
    expect(customInfo.height).toBeCloseTo(144, 0);
    expect(customInfo).toMatchObject({ title: 'Receipt', author: 'Billing Team', subject: 'Order 7' });

    const paged = await renderOk('pdf', account.apiKey, {
      html: '<div style="height:3000px">Body text</div>',
      pdf: { display_header_footer: true, footer_template: '<div style="font-size:10px">Page <span class="pageNumber"></span></div>', margins: { bottom: '20mm', top: '10mm' } },
    });
    const text = pdfText(paged.file.bytes);
    expect(text).toContain('Page 1');
    expect(pdfInfo(paged.file.bytes).pages).toBeGreaterThan(1);
  });

  it('encrypts with an open password (AES-256)', async () => {
    const account = await newAccount();
    const { file } = await renderOk('pdf', account.apiKey, { html: '<p>Secret payroll</p>', pdf: { password: 'correct horse' } });
    expect(opensWithoutPassword(file.bytes)).toBe(false);
    const info = pdfInfo(file.bytes, 'correct horse');
    expect(info.encrypted).toBe(true);
    expect(pdfText(file.bytes, 'correct horse')).toContain('Secret payroll');
  });

  it('keeps an open password only until the job ends, and no plain trace of it in the idempotency record', async () => {
    const account = await newAccount();
    const password = 'tr0ub4dor-and-3';
    const headers = { 'idempotency-key': `payroll-${Date.now()}` };
    const body = { html: '<p>Secret payroll</p>', pdf: { password } };
    const first = await api('/v1/pdf', { method: 'POST', key: account.apiKey, headers, body });
    expect(first.body.status).toBe('succeeded');
    const file = await download(first.body);
    expect(pdfText(file.bytes, password)).toContain('Secret payroll');

    // the rows: the options no longer hold it, and say it was erased
    const [row] = await serviceDb().$queryRaw<{ options: string }[]>`SELECT options::text AS options FROM render_jobs WHERE id = ${first.body.id}`;
    expect(row!.options).not.toContain(password);
    const options = (await serviceDb().renderJob.findUniqueOrThrow({ where: { id: first.body.id } })).options as any;
    expect(options.pdf_password_erased).toBe(true);
    expect(options.pdf.password).toBeUndefined();
    const record = await serviceDb().idempotencyRecord.findFirstOrThrow({ where: { accountId: account.accountId } });
    expect(record.fingerprint).toMatch(/^hmac:[0-9a-f]{64}$/);
    // the keyed fingerprint still tells the same request from another password
    const replay = await api('/v1/pdf', { method: 'POST', key: account.apiKey, headers, body });
    expect(replay.body.id).toBe(first.body.id);
    expectError(await api('/v1/pdf', { method: 'POST', key: account.apiKey, headers, body: { ...body, pdf: { password: 'another one' } } }), 409, 'idempotency_conflict');

    // a failed job loses it too, and an operator retry, which would render it unencrypted, is refused
    const failed = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<img src="https://example.com/x.png"><p>Payroll</p>', pdf: { password } } });
    expect(failed.body).toMatchObject({ status: 'failed', credit: 'released' });
    const [failedRow] = await serviceDb().$queryRaw<{ options: string }[]>`SELECT options::text AS options FROM render_jobs WHERE id = ${failed.body.id}`;
    expect(failedRow!.options).not.toContain(password);
    expect(JSON.parse(failedRow!.options).pdf_password_erased).toBe(true);
    const token = await operatorToken('password-retry');
    await gqlError('mutation ($id: ID!) { retryRenderJob(id: $id) { id } }', { token, variables: { id: failed.body.id } }, 'operation_conflict');
    expect(await serviceDb().renderJob.count({ where: { retryOf: failed.body.id } })).toBe(0);
  });

  it('outputs selected canvas pages in the requested order and refuses unknown page ids', async () => {
    const account = await newAccount();
    const html = ['cover', 'prices', 'terms'].map((id) => `<section data-svc-page="${id}" style="height:200px">Page ${id.toUpperCase()}</section>`).join('');
    const { file } = await renderOk('pdf', account.apiKey, { html, pages: ['terms', 'cover'] });
    expect(pdfInfo(file.bytes).pages).toBe(2);
    const text = pdfText(file.bytes);
    expect(text.indexOf('TERMS')).toBeLessThan(text.indexOf('COVER'));
    expect(text).not.toContain('PRICES');

    const unknown = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html, pages: ['cover', 'missing'] } });
    expect(expectError(unknown, 400, 'invalid_request').details).toEqual([{ field: 'pages.1', reason: 'invalid value' }]);
    const duplicate = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html, pages: ['cover', 'cover'] } });
    expect(expectError(duplicate, 400, 'invalid_request').details?.[0]?.field).toBe('pages');
  });

  it('refuses invalid options with field details and charges nothing', async () => {
    const account = await newAccount({ plan: 'free', credits: 1 });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ html: '' }, 'html', 'invalid value'],
      [{}, 'html', 'missing field'],
      [{ html: 'x', pdf: { format: 'A7' } }, 'pdf.format', 'invalid value'],
      [{ html: 'x', pdf: { format: 'A4', width: '10mm', height: '10mm' } }, 'pdf.width', 'invalid value'],
      [{ html: 'x', pdf: { width: '10mm' } }, 'pdf.height', 'invalid value'],
      [{ html: 'x', pdf: { width: '10.12345mm', height: '1in' } }, 'pdf.width', 'invalid value'],
      [{ html: 'x', pdf: { width: '10pt', height: '1in' } }, 'pdf.width', 'invalid value'],
      [{ html: 'x', pdf: { scale: 2.5 } }, 'pdf.scale', 'invalid value'],
      [{ html: 'x', pdf: { password: 'p'.repeat(128) } }, 'pdf.password', 'invalid value'],
      [{ html: 'x', pdf: { landscape: 'yes' } }, 'pdf.landscape', 'wrong type'],
      [{ html: 'x', viewport: { width: 100 } }, 'viewport.width', 'invalid value'],
      [{ html: 'x', javascript: { mode: 'sometimes' } }, 'javascript.mode', 'invalid value'],
      [{ html: 'x', javascript: {} }, 'javascript.mode', 'missing field'],
      [{ html: 'x', pdf: { width: '0mm', height: '1in' } }, 'pdf.width', 'invalid value'],
      [{ html: 'x', pdf: { margins: { top: '-1mm' } } }, 'pdf.margins.top', 'invalid value'],
      [{ html: 'x', filename: 'name ' }, 'filename', 'invalid value'],
      [{ html: 'x', filename: '.hidden' }, 'filename', 'invalid value'],
      [{ html: 'x', filename: 'a..b' }, 'filename', 'invalid value'],
      [{ html: 'x', reference: 'line\nbreak' }, 'reference', 'invalid value'],
      [{ html: 'x', colour: 'red' }, 'colour', 'unknown field'],
      [{ html: 'x', data: [1, 2] }, 'data', 'wrong type'],
    ];
    for (const [body, field, reason] of cases) {
      const response = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body });
      const error = expectError(response, 400, 'invalid_request');
      expect(error.details, JSON.stringify(body)).toContainEqual({ field, reason });
    }
    const balance = await serviceDb().creditBalance.findFirst({ where: { accountId: account.accountId, bucket: 'trial' } });
    expect(balance?.balance).toBe(1);
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
  });

  it('answers 402 insufficient_credits without recording a job', async () => {
    const account = await newAccount({ plan: 'free', credits: 0 });
    expectError(await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>x</p>' } }), 402, 'insufficient_credits');
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
  });

  it('answers 413 past the body limit and 415 for non-JSON bodies', async () => {
    const account = await newAccount();
    expectError(await api('/v1/pdf', { method: 'POST', key: account.apiKey, rawBody: 'html=x', headers: { 'content-type': 'text/html' } }), 415, 'unsupported_media_type');
    const huge = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: 'x'.repeat(17 * 1024 * 1024) } });
    expectError(huge, 413, 'request_too_large');
    const overRaw = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: 'x'.repeat(5_242_881) } });
    expect(expectError(overRaw, 400, 'invalid_request').details).toContainEqual({ field: 'html', reason: 'invalid value' });
  });

  it('serves downloads only through genuine, unexpired links', async () => {
    const account = await newAccount();
    const { job } = await renderOk('pdf', account.apiKey, { html: '<p>x</p>' });
    const url = new URL(job.download.url);
    const token = url.pathname.split('/').pop()!;
    const [id, expiry, signature] = token.split('.');
    const forged = await fetch(`${url.origin}/v1/downloads/${id}.${Number(expiry) + 3600}.${signature}`);
    expect(forged.status).toBe(404);
    expect((await forged.json()).error.code).toBe('not_found');
    const garbage = await fetch(`${url.origin}/v1/downloads/nonsense`);
    expect(garbage.status).toBe(404);
    // each read mints a fresh link
    const again = await api(`/v1/pdf/${job.id}`, { key: account.apiKey });
    expect(again.body.download.url).toMatch(/\/v1\/downloads\//);
    expect((await download(again.body)).status).toBe(200);
  });
});
