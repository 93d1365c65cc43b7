// The dashboard's Renders pages in a real browser: the history of renders made with the API
// (thumbnails, a PDF's first page among them, search, status filter, the template version, view,
// download, delete from the row menu) and a batch followed to its end, with
// its archive downloaded.
import { readFile } from 'node:fs/promises';
import { newId } from '../packages/core/src/shared/ids.ts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { requestRenderThumbnails } from '@svc/core';
import { api, newAccount, serviceContext, serviceDb } from './support/api.ts';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/browser.ts';
import { pdfText, renderOk } from './support/files.ts';
import { createGroup, newTemplate, settled, unzip } from './support/groups.ts';

const rowOf = (page: import('@playwright/test').Page, id: string) => page.locator(`[data-testid="render-row"][data-render-id="${id}"]`);
const shownIds = (page: import('@playwright/test').Page) => page.getByTestId('render-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-render-id')));

/**
 * Creates a batch and holds its unfinished jobs (their rows locked, so the worker's claim or
 * finish waits) until release() is called. Resolves once the lock is taken, with the batch's
 * id and the holding session's backend pid.
 */
async function holdBatch(apiKey: string, body: Record<string, unknown>): Promise<{ batchId: string; holder: number; release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: (held: { batchId: string; holder: number }) => void;
  const lockTaken = new Promise<{ batchId: string; holder: number }>((resolve) => (locked = resolve));
  const holding = serviceDb().$transaction(
    async (tx) => {
      const holder = (await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0]!.pid;
      const created = await createGroup('batches', apiKey, body);
      expect(created.status).toBe(201);
      const batchId: string = created.body.id;
      await tx.$queryRaw`SELECT id FROM render_jobs WHERE group_id = ${batchId} AND status IN ('queued', 'running') FOR UPDATE`;
      locked({ batchId, holder });
      await released;
    },
    { timeout: 60_000 },
  );
  // a failure before the lock is taken ends the wait too
  const held = await Promise.race([lockTaken, holding.then(() => Promise.reject(new Error('the batch was not held')))]);
  return {
    ...held,
    release: async () => {
      release();
      await holding;
    },
  };
}

describe('render history', () => {
  const browser = useBrowser();

  it('lists renders made with the API with thumbnails, finds them by id, name and status, views, downloads and deletes them', async () => {
    const page = browser.page();
    const account = await signIn(page);
    // version 1 draws a dark band across the top of its first page; version 2 is the latest
    const template = await newTemplate(account.apiKey, {
      name: 'Quarterly',
      source: '<div style="height:320px;background:#111"></div><h1>Quarterly report for {{ name }}</h1><p style="break-before: page">Appendix</p>',
      schema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    const second = await api(`/v1/templates/${template.id}/versions`, { method: 'POST', key: account.apiKey, body: { source: '<h1>Quarterly, version two, for {{ name }}</h1>' } });
    expect(second.status).toBe(201);
    const pdf = await renderOk('pdf', account.apiKey, { template_id: template.id, version: 1, data: { name: 'Acme' }, filename: 'quarterly-report', pdf: { print_background: true } });
    // an open password: poppler cannot draw it, so the row keeps the PDF mark
    const locked = await renderOk('pdf', account.apiKey, { html: '<h1>Locked</h1><p style="break-before: page">Second</p>', filename: 'locked-report', pdf: { password: 'secret' } });
    const image = await renderOk('image', account.apiKey, {
      html: '<body style="margin:0;background:#c81e1e"><h1 style="color:white">Social card</h1></body>',
      filename: 'social-card',
      image: { format: 'png', width: 640, height: 320 },
    });
    const failedId = newId('pdf_');
    await serviceDb().renderJob.create({
      data: { id: failedId, accountId: account.accountId, kind: 'pdf', status: 'failed', credit: 'released', filename: 'broken', options: {}, errorCode: 'render_timeout', errorCategory: 'timeout', finishedAt: new Date() },
    });
    // nothing draws the PDF's first page until the history shows it
    expect((await serviceDb().renderJob.findUniqueOrThrow({ where: { id: pdf.job.id } })).thumbnailKey).toBeNull();

    await page.goto('/dashboard/renders');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Renders');
    // newest first
    expect(await shownIds(page)).toEqual([failedId, image.job.id, locked.job.id, pdf.job.id]);

    // the image's own pixels, scaled down on the server: a small WebP, red like the render
    const thumbnail = rowOf(page, image.job.id).getByTestId('render-thumbnail');
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    expect(await thumbnail.getAttribute('alt')).toBe('Thumbnail of social-card');
    const served = await page.request.get(`/dashboard/renders/${image.job.id}/thumbnail`);
    expect(served.headers()['content-type']).toBe('image/webp');
    const { dominant } = await sharp(await served.body()).stats();
    expect(dominant.r).toBeGreaterThan(150);
    expect(dominant.g).toBeLessThan(80);

    // the PDF's first page as the worker drew it once the history showed the row: the PDF mark
    // turns into an A4 page 160 px high, the dark band on top
    const firstPage = rowOf(page, pdf.job.id).getByTestId('render-thumbnail');
    await expect.poll(() => firstPage.count(), { timeout: 60_000 }).toBe(1);
    expect(await firstPage.getAttribute('alt')).toBe('First page of quarterly-report.pdf');
    await expect.poll(() => firstPage.evaluate((img: HTMLImageElement) => img.complete && img.naturalHeight)).toBe(160);
    const drawn = await firstPage.evaluate((img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const darkIn = (fromRow: number, toRow: number) => {
        let dark = 0;
        for (let y = fromRow; y < toRow; y++) for (let x = 0; x < canvas.width; x++) if (pixels[(y * canvas.width + x) * 4]! < 80) dark++;
        return dark / ((toRow - fromRow) * canvas.width);
      };
      return { width: img.naturalWidth, top: darkIn(15, 45), bottom: darkIn(110, 160) };
    });
    expect(drawn.width).toBeGreaterThan(100);
    expect(drawn.top).toBeGreaterThan(0.5);
    expect(drawn.bottom).toBeLessThan(0.05);
    const pdfThumbnail = await page.request.get(`/dashboard/renders/${pdf.job.id}/thumbnail`);
    expect(pdfThumbnail.headers()).toMatchObject({ 'content-type': 'image/webp', 'cache-control': 'private, max-age=300' });
    // a PDF without a drawn page shows its mark with the page count the renderer recorded, never a broken image
    expect(await rowOf(page, locked.job.id).getByTestId('pdf-mark').textContent()).toBe('PDF2 pages');
    expect(await rowOf(page, locked.job.id).getByRole('img').count()).toBe(0);
    expect(await rowOf(page, failedId).textContent()).toContain('render_timeout');
    await expectAccessible(page);
    await screenshot(page, 'renders');
    // on a phone-sized screen the list wraps instead of scrolling sideways
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'renders-narrow');
    await page.setViewportSize({ width: 1280, height: 900 });

    // status filter, then search by file name and by id
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => shownIds(page)).toEqual([failedId]);
    expect(new URL(page.url()).searchParams.get('status')).toBe('failed');
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Search').fill('quarterly-report');
    await page.getByLabel('Search').press('Enter');
    await expect.poll(() => shownIds(page)).toEqual([pdf.job.id]);
    await page.getByLabel('Search').fill(image.job.id);
    await page.getByLabel('Search').press('Enter');
    await expect.poll(() => shownIds(page)).toEqual([image.job.id]);
    await page.getByLabel('Search').fill('no-such-render');
    await page.getByLabel('Search').press('Enter');
    await expect.poll(() => page.getByText('No render matches').count()).toBe(1);
    await page.getByRole('link', { name: 'Clear' }).click();
    await expect.poll(() => shownIds(page)).toHaveLength(4);

    // View opens the file in the browser's own viewer, in a new tab, under the session
    const view = rowOf(page, pdf.job.id).getByRole('link', { name: 'View quarterly-report.pdf in a new tab' });
    expect(await view.getAttribute('target')).toBe('_blank');
    const viewed = await page.request.get((await view.getAttribute('href'))!);
    expect(viewed.status()).toBe(200);
    expect(viewed.headers()['content-type']).toBe('application/pdf');
    expect(viewed.headers()['content-disposition']).toBe('inline; filename="quarterly-report.pdf"');
    expect(pdfText(await viewed.body())).toContain('Quarterly report for Acme');

    // download gives the file itself
    const [download] = await Promise.all([page.waitForEvent('download'), rowOf(page, pdf.job.id).getByRole('link', { name: 'Download quarterly-report.pdf' }).click()]);
    expect(download.suggestedFilename()).toBe('quarterly-report.pdf');
    const bytes = await readFile((await download.path())!);
    expect(pdfText(bytes)).toContain('Quarterly report');

    // the template link opens the template at the version that made the render
    await rowOf(page, pdf.job.id).getByRole('link', { name: 'Quarterly v1' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Quarterly');
    expect(new URL(page.url()).searchParams.get('version')).toBe('1');
    await expect.poll(() => page.getByText('Editing version 1 (latest is 2)').count()).toBe(1);
    await page.goto('/dashboard/renders');

    // Delete lives in the row's menu: the keyboard opens it on its item, Escape closes it
    // and gives the focus back to the button
    const menuButton = rowOf(page, pdf.job.id).getByRole('button', { name: 'Actions for quarterly-report.pdf' });
    const menu = page.getByRole('menu', { name: 'Actions for quarterly-report.pdf' });
    const focused = (locator: import('@playwright/test').Locator) => locator.evaluate((element) => element === document.activeElement);
    expect(await rowOf(page, pdf.job.id).getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(menu.getByRole('menuitem', { name: 'Delete' }))).toBe(true);
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await focused(menuButton)).toBe(true);
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    // it asks first; Cancel keeps the file
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(menu.getByRole('menuitem', { name: 'Delete' }))).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete quarterly-report.pdf?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api(`/v1/pdf/${pdf.job.id}`, { key: account.apiKey })).body.artifact.removed_reason).toBeNull();
    await menuButton.click();
    await menu.getByRole('menuitem', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete render' }).click();
    await expect.poll(() => rowOf(page, pdf.job.id).textContent()).toContain('file deleted');
    // the file and its first page are gone: no links, no image, no broken one
    expect(await rowOf(page, pdf.job.id).getByRole('link', { name: /Download|View/ }).count()).toBe(0);
    expect(await rowOf(page, pdf.job.id).getByRole('img').count()).toBe(0);
    expect(await rowOf(page, pdf.job.id).getByTestId('pdf-mark').count()).toBe(1);
    const read = await api(`/v1/pdf/${pdf.job.id}`, { key: account.apiKey });
    expect(read.body.artifact.removed_reason).toBe('deleted');
    expect((await fetch(pdf.job.download.url)).status).not.toBe(200);
    expect((await page.request.get(`/dashboard/renders/${pdf.job.id}/thumbnail`)).status()).toBe(404);
    expect((await page.request.get(`/dashboard/renders/${pdf.job.id}/view`)).status()).toBe(404);
    // a failed render leaves the history
    await rowOf(page, failedId).getByRole('button', { name: 'Actions for broken.pdf' }).click();
    await page.getByRole('menu', { name: 'Actions for broken.pdf' }).getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete broken.pdf?' }).getByRole('button', { name: 'Delete render' }).click();
    await expect.poll(() => shownIds(page)).toEqual([image.job.id, locked.job.id, pdf.job.id]);
  });

  it('says so when there is nothing yet, and pages through a long history', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await page.goto('/dashboard/renders');
    await expect.poll(() => page.getByText('No renders yet').count()).toBe(1);
    await page.goto('/dashboard/renders/groups');
    await expect.poll(() => page.getByText('No batches, carousels or image packs yet').count()).toBe(1);
    await expectAccessible(page);

    const base = Date.now() - 60_000;
    const ids = Array.from({ length: 23 }, () => newId('pdf_'));
    await serviceDb().renderJob.createMany({
      data: ids.map((id, index) => ({ id, accountId: account.accountId, kind: 'pdf' as const, status: 'cancelled' as const, credit: 'released' as const, filename: `row-${index}`, options: {}, createdAt: new Date(base + index * 1000) })),
    });
    await page.goto('/dashboard/renders');
    const newestFirst = [...ids].reverse();
    await expect.poll(() => shownIds(page)).toEqual(newestFirst.slice(0, 20));
    await page.getByRole('link', { name: 'Older renders' }).click();
    await expect.poll(() => shownIds(page)).toEqual(newestFirst.slice(20));
    expect(await page.getByRole('link', { name: 'Older renders' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Newest' }).click();
    await expect.poll(() => shownIds(page)).toEqual(newestFirst.slice(0, 20));
  });
});

describe('groups', () => {
  const browser = useBrowser();

  it('follows a batch made with the API until it is complete, then downloads its archive', async () => {
    const page = browser.page();
    const account = await signIn(page);
    const template = await newTemplate(account.apiKey, {
      name: 'Invoice',
      source: '<h1>Invoice for {{ name }}</h1>',
      schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    });
    const names = Array.from({ length: 8 }, (_, index) => `Customer ${index + 1}`);
    // the rows' unfinished jobs are held (their rows locked, so the worker's claim or finish
    // waits) until the page has shown the batch in progress: the page must then follow it
    // without a reload
    const { batchId, release } = await holdBatch(account.apiKey, { template_id: template.id, format: 'pdf', rows: names.map((name) => ({ name })) });

    await page.goto('/dashboard/renders/groups');
    const listed = page.locator(`[data-testid="group-row"][data-group-id="${batchId}"]`);
    expect(await listed.textContent()).toContain('Batch of 8');
    await expectAccessible(page);
    await screenshot(page, 'renders-groups');
    await listed.getByRole('link', { name: /Batch of 8/ }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Batch of 8');
    const overall = page.getByRole('progressbar', { name: 'Members finished' });
    expect(Number(await overall.getAttribute('aria-valuenow'))).toBeLessThan(8);
    expect(await page.getByTestId('group-member').count()).toBe(8);
    expect(await page.getByRole('button', { name: 'Cancel batch' }).count()).toBe(1);
    expect(await page.getByTestId('archive-link').count()).toBeLessThanOrEqual(1);
    await expectAccessible(page);
    await screenshot(page, 'renders-batch-running');

    await release();
    // the page refreshes itself: no reload here
    await expect.poll(() => overall.getAttribute('aria-valuenow'), { timeout: 60_000 }).toBe('8');
    await expect.poll(() => page.getByTestId('group-progress').textContent()).toBe('8 of 8 finished · 8 succeeded');
    const states = await page.getByTestId('group-member').evaluateAll((rows) => rows.map((row) => row.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')));
    expect(states).toEqual(Array(8).fill('100'));
    expect(await page.getByRole('button', { name: 'Cancel batch' }).count()).toBe(0);
    await screenshot(page, 'renders-batch-complete');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('archive-link').click()]);
    const entries = await unzip(await readFile((await download.path())!));
    expect(entries.map((entry) => entry.name)).toEqual([...names.map((_, index) => `00${index + 1}.pdf`), 'manifest.json']);
    expect(pdfText(entries[0]!.bytes)).toContain('Invoice for Customer 1');
    expect(pdfText(entries[7]!.bytes)).toContain('Invoice for Customer 8');
    expect(JSON.parse(entries[8]!.bytes.toString('utf8'))).toMatchObject({ kind: 'batch', id: batchId, state: 'complete' });

    // a member's own file
    const [member] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download Row 3' }).click()]);
    expect(pdfText(await readFile((await member.path())!))).toContain('Invoice for Customer 3');
  });

  it('cancels a running batch from the page, after asking', async () => {
    const page = browser.page();
    const account = await signIn(page);
    const template = await newTemplate(account.apiKey, { name: 'Note', source: '<p>{{ n }}</p>', schema: { type: 'object', properties: { n: { type: 'string' } } } });
    // more rows than the key may run at once: some wait without a job; the admitted ones are
    // held unfinished (rows locked) so the batch is surely running when it is cancelled
    const { batchId, holder, release } = await holdBatch(account.apiKey, {
      template_id: template.id,
      format: 'pdf',
      rows: Array.from({ length: 20 }, (_, index) => ({ n: `row ${index}` })),
    });
    await page.goto(`/dashboard/renders/groups/${batchId}`);
    await page.getByRole('button', { name: 'Cancel batch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this batch?' });
    expect(await dialog.textContent()).toContain('credits released');
    await dialog.getByRole('button', { name: 'Cancel batch' }).click();
    // the cancel has marked the waiting rows, and either ended (every held job was running) or
    // waits for the held queued jobs' rows: behind the holder, or behind a worker's claim of one
    // of them that waits for the holder itself
    const cancelReached = async () =>
      (
        await serviceDb().$queryRaw<{ reached: boolean }[]>`
          SELECT EXISTS (SELECT 1 FROM render_groups WHERE id = ${batchId} AND cancelled_at IS NOT NULL)
              OR EXISTS (
                SELECT 1 FROM pg_stat_activity a
                 WHERE a.query LIKE '%FOR UPDATE OF j%'
                   AND (${holder}::int = ANY (pg_blocking_pids(a.pid))
                        OR EXISTS (SELECT 1 FROM unnest(pg_blocking_pids(a.pid)) AS ahead(pid) WHERE ${holder}::int = ANY (pg_blocking_pids(ahead.pid))))) AS reached`
      )[0]!.reached;
    await expect.poll(cancelReached).toBe(true);
    await release();
    const badge = page.locator('[aria-live="polite"]').getByText(/^(cancelled|partial)$/);
    await expect.poll(() => badge.count(), { timeout: 60_000 }).toBe(1);
    const memberStates = await page.getByTestId('group-member').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
    expect(memberStates.filter((text) => text.includes('cancelled')).length).toBeGreaterThanOrEqual(4);
    expect(memberStates.every((text) => /succeeded|cancelled/.test(text))).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel batch' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Retry failed members' }).count()).toBe(1);
    const read = await api(`/v1/batches/${batchId}`, { key: account.apiKey });
    expect(read.body.rows.filter((row: { state: string }) => row.state === 'cancelled').length).toBe(memberStates.filter((text) => text.includes('cancelled')).length);
  });

  it('retries the failed rows of a batch from the page', async () => {
    const page = browser.page();
    const account = await signIn(page);
    // a row with fail: true reaches for the network, which fails its render (blocked_request)
    const template = await newTemplate(account.apiKey, {
      name: 'Letter',
      source: '{% if fail %}<img src="http://127.0.0.1:9/pixel.png">{% endif %}<h1>Letter for {{ name }}</h1>',
      schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, fail: { type: 'boolean' } } },
    });
    const created = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows: [{ name: 'Ann' }, { name: 'Bob', fail: true }] });
    const batch = await settled('batches', account.apiKey, created.body.id);
    expect(batch.state).toBe('partial');
    await page.goto(`/dashboard/renders/groups/${batch.id}`);
    expect(await page.getByTestId('group-progress').textContent()).toBe('2 of 2 finished · 1 succeeded · 1 failed');
    expect(await page.getByTestId('group-member').nth(1).textContent()).toContain('blocked_request');
    const failedJob = (await serviceDb().renderGroupMember.findFirstOrThrow({ where: { groupId: batch.id, position: 1 } })).jobId;
    await page.getByRole('button', { name: 'Retry failed members' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Failed members are queued again.' }).count()).toBe(1);
    // the failed row ran again as a new job; the succeeded row was left alone
    await expect.poll(async () => (await serviceDb().renderGroupMember.findFirstOrThrow({ where: { groupId: batch.id, position: 1 } })).jobId).not.toBe(failedJob);
    await expect.poll(() => page.getByTestId('group-progress').textContent(), { timeout: 60_000 }).toBe('2 of 2 finished · 1 succeeded · 1 failed');
    expect(await serviceDb().renderJob.count({ where: { groupId: batch.id, status: 'succeeded' } })).toBe(1);
  });

  it("answers an unknown group, and another account's renders and groups, with not found", async () => {
    const page = browser.page();
    await signIn(page);
    await page.goto(`/dashboard/renders/groups/${newId('batch_')}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
    await page.goto('/dashboard/renders/groups/not-a-group');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');

    const other = await newAccount();
    const image = await renderOk('image', other.apiKey, { html: '<h1>Theirs</h1>', image: { format: 'png', width: 640, height: 320 } });
    expect((await page.request.get(`/dashboard/renders/${image.job.id}/download`, { maxRedirects: 0 })).status()).toBe(404);
    expect((await page.request.get(`/dashboard/renders/${image.job.id}/thumbnail`)).status()).toBe(404);
    expect((await page.request.get(`/dashboard/renders/${image.job.id}/view`)).status()).toBe(404);
    const theirPdf = await renderOk('pdf', other.apiKey, { html: '<h1>Their PDF</h1>' });
    // drawn as their own history would ask for it
    const theirJob = await serviceDb().renderJob.findUniqueOrThrow({ where: { id: theirPdf.job.id } });
    expect(await requestRenderThumbnails(serviceContext(), { accountId: other.accountId, jobs: [theirJob] })).toEqual([theirJob.id]);
    await expect.poll(async () => (await serviceDb().renderJob.findUniqueOrThrow({ where: { id: theirPdf.job.id } })).thumbnailKey, { timeout: 60_000 }).not.toBeNull();
    expect((await page.request.get(`/dashboard/renders/${theirPdf.job.id}/thumbnail`)).status()).toBe(404);
    expect((await page.request.get(`/dashboard/renders/${theirPdf.job.id}/view`)).status()).toBe(404);
    const template = await newTemplate(other.apiKey, { name: 'Theirs', source: '<p>{{ n }}</p>', schema: { type: 'object', properties: { n: { type: 'string' } } } });
    const theirs = await createGroup('batches', other.apiKey, { template_id: template.id, format: 'png', rows: [{ n: 'a' }] });
    await page.goto(`/dashboard/renders/groups/${theirs.body.id}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
    await page.goto('/dashboard/renders/groups');
    expect(await page.locator(`[data-group-id="${theirs.body.id}"]`).count()).toBe(0);
  });
});
