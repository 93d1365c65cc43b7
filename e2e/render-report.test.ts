// The render report over real HTTP: GET /v1/pdf/{id}/report and GET /v1/image/{id}/report.
import { emptyFindings, maxReportEntries, type RenderFindings, RenderReport } from '@svc/contracts';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceContext, serviceDb, type TestAccount } from './support/api.ts';
import { imageInfo, pdfInfo, renderOk } from './support/files.ts';
import { securitySuite } from './support/security.ts';
import { finishRender } from '../packages/core/src/renders/finish-render.ts';
import { createPreviewJob } from '../packages/core/src/renders/preview-job.ts';

const missingPdf = `pdf_${'0'.repeat(32)}`;

async function reportOf(kind: 'pdf' | 'image', id: string, key: string): Promise<RenderReport> {
  const response = await api(`/v1/${kind}/${id}/report`, { key });
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  // the answer is the published shape, nothing more
  return RenderReport.parse(response.body);
}

/** The report of a job that was never rendered: empty lists, nulls for every stage. */
function reportWithoutRender(id: string, status: RenderReport['status'], createdAt: string | null): RenderReport {
  return {
    object: 'render_report',
    id,
    status,
    created_at: createdAt,
    output: null,
    fonts: [],
    script: { mode: 'disabled', script_elements: 0, event_handlers: 0 },
    timing: { queue_wait_ms: null, content_load_ms: null, fonts_ready_ms: null, ready_wait_ms: null, capture_ms: null, post_process_ms: null, storage_ms: null },
    paged: null,
    problems: [],
    omitted: 0,
  };
}

function expectStageTimes(report: RenderReport, stages: (keyof RenderReport['timing'])[]): void {
  for (const stage of stages) {
    expect(report.timing[stage], stage).toEqual(expect.any(Number));
    expect(report.timing[stage]!).toBeGreaterThanOrEqual(0);
  }
}

describe('render report', () => {
  it('reports a clean PDF render: no problems, its fonts, each stage timed, and the file it made', async () => {
    const account = await newAccount();
    const html = '<h1>Invoice 42</h1><p>Thank you.</p><p style="break-before: page">Terms</p>';
    const { job, file } = await renderOk('pdf', account.apiKey, { html });
    const report = await reportOf('pdf', job.id, account.apiKey);
    expect(report).toMatchObject({ object: 'render_report', id: job.id, status: 'succeeded', problems: [], omitted: 0 });
    expect(report.created_at).toBe(job.finished_at);
    expect(report.output).toEqual({ media_type: 'application/pdf', byte_size: job.artifact.byte_size, pages: pdfInfo(file.bytes).pages, width: null, height: null });
    expect(report.output!.byte_size).toBe(file.bytes.byteLength);
    expect(report.output!.pages).toBe(2);
    expect(report.script).toEqual({ mode: 'disabled', script_elements: 0, event_handlers: 0 });
    expectStageTimes(report, ['queue_wait_ms', 'content_load_ms', 'fonts_ready_ms', 'capture_ms', 'post_process_ms', 'storage_ms']);
    // the document asked for no readiness wait
    expect(report.timing.ready_wait_ms).toBeNull();
    // the document does not opt in to paged media
    expect(report.paged).toBeNull();
    expect(report.fonts.length).toBeGreaterThan(0);
    for (const font of report.fonts) expect(font).toMatchObject({ source: 'system', embedded: true });
  });

  it('reports script a document holds while javascript is disabled', async () => {
    const account = await newAccount();
    const html = '<p onclick="go()">Total</p><script>document.body.append("ran")</script><script type="application/json">{}</script>';
    const { job } = await renderOk('pdf', account.apiKey, { html });
    const report = await reportOf('pdf', job.id, account.apiKey);
    expect(report.problems).toEqual([{ type: 'script_disabled', script_elements: 1, event_handlers: 1 }]);
    expect(report.script).toEqual({ mode: 'disabled', script_elements: 1, event_handlers: 1 });
  });

  it("reports an image's size from its options and the file it made", async () => {
    const account = await newAccount();
    const { job, file } = await renderOk('image', account.apiKey, { html: '<p>badge</p>', image: { format: 'png', width: 320, height: 200 } });
    const report = await reportOf('image', job.id, account.apiKey);
    const info = await imageInfo(file.bytes);
    expect(report.output).toEqual({ media_type: 'image/png', byte_size: file.bytes.byteLength, pages: null, width: info.width, height: info.height });
    expect(report.output).toMatchObject({ width: 320, height: 200 });
    expect(report.status).toBe('succeeded');
    // a PNG's compression after the capture is its post-processing
    expectStageTimes(report, ['queue_wait_ms', 'content_load_ms', 'capture_ms', 'post_process_ms', 'storage_ms']);
  });

  it('reports text that reached its minimum size and still overflows, on a render that succeeds', async () => {
    const account = await newAccount();
    const html = '<div id="title" data-svc-fit="shrink" data-svc-fit-min="10" style="font-size: 24px; width: 60px; height: 24px; overflow: hidden">A title far too long for its box</div>';
    const { job } = await renderOk('pdf', account.apiKey, { html });
    const report = await reportOf('pdf', job.id, account.apiKey);
    expect(report.status).toBe('succeeded');
    expect(report.problems).toContainEqual({ type: 'text_fit_minimum', selector: '#title', font_size: 10 });
  });

  it('keeps a report for a failed render: its status, the blocked request, no file, nothing stored', async () => {
    const account = await newAccount();
    const created = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<img src="http://example.com/x.png"><p>x</p>' } });
    expect(created.body).toMatchObject({ status: 'failed', error: { category: 'unsafe_asset' } });
    const report = await reportOf('pdf', created.body.id, account.apiKey);
    expect(report).toMatchObject({ id: created.body.id, status: 'failed', output: null });
    expect(report.created_at).toBe(created.body.finished_at);
    expect(report.timing.storage_ms).toBeNull();
    expect(report.timing.queue_wait_ms).toEqual(expect.any(Number));
    expect(report.problems).toContainEqual(expect.objectContaining({ type: 'resource_blocked', url: 'http://example.com/x.png', rule: 'network' }));
  });

  it('answers a job that has not run with its status, empty lists and nulls', async () => {
    const account = await newAccount();
    // recorded and never queued: the job stays queued
    const jobId = await createPreviewJob(serviceContext(), { accountId: account.accountId, keyId: null, html: '<p>later</p>', output: { type: 'pdf' } });
    const report = await reportOf('pdf', jobId, account.apiKey);
    expect(report).toEqual(reportWithoutRender(jobId, 'queued', null));
  });

  it('writes a report when a job ends without a render (a cancellation): empty lists, nulls for every stage', async () => {
    const account = await newAccount();
    const ctx = serviceContext();
    const jobId = await createPreviewJob(ctx, { accountId: account.accountId, keyId: null, html: '<p>never</p>', output: { type: 'image', format: 'png', width: 300, height: 100 } });
    const now = new Date();
    expect(await serviceDb().$transaction((tx) => finishRender(tx, { jobId, attempt: null, outcome: { status: 'cancelled' }, now, metrics: ctx.metrics }))).toBe(true);
    const stored = await serviceDb().renderJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(stored.report).not.toBeNull();
    const report = await reportOf('image', jobId, account.apiKey);
    expect(report).toEqual(reportWithoutRender(jobId, 'cancelled', stored.finishedAt!.toISOString()));
  });

  it('stores findings as the contract publishes them: capped lists, whole milliseconds, refused entries counted in omitted', async () => {
    const account = await newAccount();
    const jobId = await createPreviewJob(serviceContext(), { accountId: account.accountId, keyId: null, html: '<p>x</p>', output: { type: 'pdf' } });
    const clipped = (index: number) => ({ type: 'clipped_content' as const, selector: `p:nth-of-type(${index + 1})`, context: 'text', box: { width: 10, height: 10 }, content: { width: 20, height: 10 } });
    const findings: RenderFindings = {
      ...emptyFindings(),
      problems: [
        ...Array.from({ length: maxReportEntries + 4 }, (_, index) => clipped(index)),
        { type: 'missing_glyph', code_point: 'not a code point', character: 'x', count: 1, selector: 'p', context: '' },
      ],
      omitted: 2,
      timing: { ...emptyFindings().timing, content_load_ms: 12.6 },
      paged: { pages: 3, footnotes: 1, references: 4, unresolved: 0 },
    };
    const finish = { status: 'failed', category: 'renderer_failure', code: 'render_crashed' } as const;
    expect(await serviceDb().$transaction((tx) => finishRender(tx, { jobId, attempt: null, outcome: finish, now: new Date(), report: { findings, storageMs: null }, metrics: serviceContext().metrics }))).toBe(true);
    const report = await reportOf('pdf', jobId, account.apiKey);
    expect(report.problems).toHaveLength(maxReportEntries);
    expect(report.problems[0]).toEqual(clipped(0));
    expect(report.omitted).toBe(2 + 4 + 1);
    expect(report.timing.content_load_ms).toBe(13);
    expect(report.paged).toEqual({ pages: 3, footnotes: 1, references: 4, unresolved: 0 });
  });

  it('reports what the paged layout did for a document that opts in, and a report kept before it still answers', async () => {
    const account = await newAccount();
    const html = `<!doctype html><html><head><meta name="svc-paged" content="on"><style>@page { size: A5; }
      a::after { content: " on page " target-counter(attr(href), page); } section { break-before: page; }</style></head>
      <body><p><a href="#end">End</a> <a id="lost" href="#nowhere">Lost</a></p><section id="end">End</section></body></html>`;
    const { job } = await renderOk('pdf', account.apiKey, { html });
    const report = await reportOf('pdf', job.id, account.apiKey);
    expect(report.paged).toEqual({ pages: 2, footnotes: 0, references: 1, unresolved: 1 });
    expect(report.problems).toEqual([{ type: 'unresolved_reference', selector: '#lost', target: '#nowhere' }]);
    // a report written before the paged part was kept has none, and is still the published shape
    await serviceDb().$executeRaw`UPDATE render_jobs SET report = report - 'paged' WHERE id = ${job.id}`;
    const old = await api(`/v1/pdf/${job.id}/report`, { key: account.apiKey });
    expect(old.status).toBe(200);
    expect(old.body).not.toHaveProperty('paged');
    expect(RenderReport.parse(old.body).problems).toHaveLength(1);
  });

  it("answers 404 in the envelope for another account's job, an unknown id and the other kind's route", async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const { job } = await renderOk('pdf', owner.apiKey, { html: '<p>mine</p>' });
    const foreign = await api(`/v1/pdf/${job.id}/report`, { key: stranger.apiKey });
    const unknown = await api(`/v1/pdf/${missingPdf}/report`, { key: owner.apiKey });
    const otherKind = await api(`/v1/image/${job.id}/report`, { key: owner.apiKey });
    for (const response of [foreign, unknown, otherKind]) expectError(response, 404, 'not_found');
    expect(foreign.body.error.message).toBe(unknown.body.error.message);
  });
});

const arrangePdf = async (account: TestAccount) => (await renderOk('pdf', account.apiKey, { html: '<p>owned</p>' })).job.id as string;
securitySuite('GET /v1/pdf/{id}/report', { method: 'GET', path: (id) => `/v1/pdf/${id}/report`, arrange: arrangePdf, missingId: missingPdf });
