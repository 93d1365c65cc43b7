// The render page of the dashboard in a real browser: the render report, problems first in
// plain words, then fonts, timing and the file.
import { emptyFindings, type RenderFindings } from '@svc/contracts';
import { describe, expect, it } from 'vitest';
import { finishRender } from '../packages/core/src/renders/finish-render.ts';
import { newId } from '../packages/core/src/shared/ids.ts';
import { newAccount, serviceContext, serviceDb } from './support/api.ts';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/browser.ts';
import { renderOk } from './support/files.ts';

describe('render page', () => {
  const browser = useBrowser();

  it('opens from the history and shows a clean render: no problems, timing and its file', async () => {
    const page = browser.page();
    const account = await signIn(page);
    const { job } = await renderOk('pdf', account.apiKey, { html: '<h1>Quarterly report</h1><p style="break-before: page">Appendix</p>', filename: 'quarterly-report' });
    await page.goto('/dashboard/renders');
    await page.getByRole('link', { name: 'quarterly-report.pdf', exact: true }).click();
    await page.waitForURL(`**/dashboard/renders/${job.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('quarterly-report');
    expect(await page.getByTestId('report-no-problems').textContent()).toBe('None found.');
    const file = page.getByTestId('report-file');
    expect(await file.textContent()).toContain('application/pdf');
    expect(await file.textContent()).toContain('Pages2');
    expect(await page.getByTestId('report-timing').textContent()).toContain('Storing the file');
    // the file itself, shown by the browser: the session reads it, inline
    const view = await page.request.get(`/dashboard/renders/${job.id}/view`);
    expect(await page.getByRole('link', { name: 'View the file in a new tab' }).getAttribute('href')).toBe(`/dashboard/renders/${job.id}/view`);
    expect([view.status(), view.headers()['content-type'], view.headers()['content-disposition']?.split(';')[0]]).toEqual([200, 'application/pdf', 'inline']);
    await expectAccessible(page);
  });

  it('shows the problems a render found, in plain words', async () => {
    const page = browser.page();
    const account = await signIn(page);
    const html = '<div id="title" data-svc-fit="shrink" data-svc-fit-min="10" style="font-size: 24px; width: 60px; height: 24px; overflow: hidden">A title far too long for its box</div>';
    const { job } = await renderOk('pdf', account.apiKey, { html, filename: 'cramped' });
    await page.goto(`/dashboard/renders/${job.id}`);
    const problems = page.getByTestId('report-problem');
    await expect.poll(() => problems.allTextContents()).toContainEqual('Text shrank to its smallest size (10 px) and still does not fit its boxin #title');
  });

  it("shows a failed render's problems first, in plain words, with where they are", async () => {
    const page = browser.page();
    const account = await signIn(page);
    // a job that ran and failed with what the renderer found (the worker's finish, as it writes it)
    const jobId = newId('pdf_');
    const now = new Date();
    await serviceDb().renderJob.create({
      data: { id: jobId, accountId: account.accountId, kind: 'pdf', status: 'running', credit: 'reserved', attempts: 1, filename: 'menu', options: { kind: 'pdf', javascript: 'disabled' }, createdAt: now, startedAt: now },
    });
    const findings: RenderFindings = {
      ...emptyFindings(),
      problems: [
        { type: 'missing_glyph', code_point: 'U+E000', character: '\u{E000}', count: 2, selector: 'div.title', context: 'Today \u{E000} specials' },
        { type: 'missing_glyph', code_point: 'U+E001', character: '\u{E001}', count: 1, selector: 'div.title', context: 'Today \u{E001}' },
        { type: 'resource_blocked', url: 'http://example.com/x.png', rule: 'network', resource_type: 'image' },
      ],
      timing: { ...emptyFindings().timing, content_load_ms: 12 },
    };
    const finished = await serviceDb().$transaction((tx) =>
      finishRender(tx, { jobId, attempt: 1, outcome: { status: 'failed', category: 'unsafe_asset', code: 'blocked_request' }, now: new Date(), report: { findings, storageMs: null }, metrics: serviceContext().metrics }),
    );
    expect(finished).toBe(true);

    await page.goto(`/dashboard/renders/${jobId}`);
    const problems = page.getByTestId('report-problem');
    await expect.poll(() => problems.count()).toBe(2);
    expect(await problems.nth(0).textContent()).toContain('3 characters could not be drawn (no font has them): U+E000, U+E001');
    expect(await problems.nth(0).textContent()).toContain('in div.title');
    expect(await problems.nth(1).textContent()).toContain('Not loaded: the document asked for an image on the network');
    expect(await problems.nth(1).textContent()).toContain('http://example.com/x.png');
    expect(await page.getByTestId('report-timing').textContent()).toContain('not reached');
    expect(await page.getByText('No file was made.').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'render-report');
    // another account's render and an unknown one are the dashboard's not found
    const stranger = await newAccount();
    const foreignId = newId('pdf_');
    await serviceDb().renderJob.create({
      data: { id: foreignId, accountId: stranger.accountId, kind: 'pdf', status: 'failed', credit: 'released', filename: 'theirs', options: {}, errorCode: 'render_timeout', errorCategory: 'timeout', finishedAt: now },
    });
    for (const id of [foreignId, `pdf_${'0'.repeat(32)}`, `image_${jobId.slice(4)}`]) {
      await page.goto(`/dashboard/renders/${id}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
    }
  });
});
