// The dashboard's version comparison renders two real images for no credit: an account whose
// balance could not pay for them is refused before any render (insufficient_credits); replayed
// in parallel it is refused past the account's unbilled render budget (rate_limited), and
// another account's PDF renders keep their latency meanwhile (the admitted images wait as bulk
// work); its images reach the page and nowhere else (never in history, no file kept).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { describe, expect, inject, it } from 'vitest';
import { api, newAccount, serviceDb } from './support/api.ts';
import { signIn, useBrowser } from './support/browser.ts';

const wait = { timeout: 60_000 };

async function hydrated(locator: Locator) {
  await expect.poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps'))), wait).toBe(true);
  return locator;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Wall times of `count` small PDFs of `key`, one after the other, each waited for to its end. */
async function timedPdfs(key: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const response = await api('/v1/pdf', { method: 'POST', key, body: { html: `<h1>Invoice ${index}</h1>` } });
    times.push(performance.now() - started);
    expect([response.status, response.body?.status]).toEqual([200, 'succeeded']);
    // render creation allows five a second: stay well under it
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return times;
}

const page = (text: string) => `<!doctype html><html><body style="margin:0"><div style="height:2400px;background:linear-gradient(#fff,#36c)"><h1>${text}</h1></div></body></html>`;

/** A template with two versions, opened on its Versions tab. */
async function openComparison(tab: Page, apiKey: string): Promise<string> {
  const created = await api('/v1/templates', { method: 'POST', key: apiKey, body: { name: 'Compared', source: page('One') } });
  expect(created.status).toBe(201);
  const templateId: string = created.body.id;
  expect((await api(`/v1/templates/${templateId}/versions`, { method: 'POST', key: apiKey, body: { source: page('Two') } })).status).toBe(201);
  await tab.goto(`/dashboard/templates/${templateId}`);
  await (await hydrated(tab.getByRole('tab', { name: 'Versions' }))).click();
  return templateId;
}

const balanceOf = async (accountId: string) =>
  (await serviceDb().creditBalance.findMany({ where: { accountId } })).reduce((sum, bucket) => sum + bucket.balance, 0);

describe('dashboard version comparison', () => {
  const browser = useBrowser({ viewport: { width: 1400, height: 1000 } });

  it('is refused before any render when the balance could not pay for its two images', async () => {
    const tab = browser.page();
    const account = await signIn(tab, { plan: 'free', credits: 0 });
    await openComparison(tab, account.apiKey);
    await tab.getByRole('button', { name: 'Compare renders' }).click();
    const alert = tab.getByRole('alert').filter({ hasText: 'The versions could not be compared' });
    await expect.poll(() => alert.textContent(), wait).toContain('Code: insufficient_credits');
    expect(await tab.getByTestId('version-comparison').count()).toBe(0);
    // nothing rendered, queued or charged
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await serviceDb().creditLedgerEntry.count({ where: { accountId: account.accountId } })).toBe(0);
  }, 120_000);

  it('shows its images on the page only: never in history, their files removed', async () => {
    const tab = browser.page();
    const account = await signIn(tab, { plan: 'free', credits: 2 });
    await openComparison(tab, account.apiKey);
    await tab.getByRole('button', { name: 'Compare renders' }).click();
    await expect.poll(() => tab.getByTestId('version-comparison').getByRole('img').count(), { timeout: 90_000 }).toBe(3);

    const jobs = await serviceDb().renderJob.findMany({ where: { accountId: account.accountId } });
    expect(jobs.map((job) => [job.status, job.credit, job.removedReason])).toEqual([
      ['succeeded', 'none', 'deleted'],
      ['succeeded', 'none', 'deleted'],
    ]);
    for (const job of jobs) expect(existsSync(join(inject('filesDir'), job.storageKey!)), job.storageKey!).toBe(false);
    // neither the API's history nor the dashboard's lists them, and they have no download
    expect((await api('/v1/image', { key: account.apiKey })).body.items).toEqual([]);
    for (const job of jobs) expect((await api(`/v1/image/${job.id}`, { key: account.apiKey })).body.download).toBeNull();
    await tab.goto('/dashboard/renders');
    const content = await tab.content();
    for (const job of jobs) expect(content).not.toContain(job.id);
    // the comparison cost nothing
    expect(await balanceOf(account.accountId)).toBe(2);
  }, 180_000);

  it("is refused past the unbilled render budget, and another account's renders keep their latency", async () => {
    const tab = browser.page();
    // a balance that could pay for the two images (none is taken)
    const account = await signIn(tab, { plan: 'free', credits: 2 });
    // one comparison through the page, whose server action call is kept to be replayed
    await openComparison(tab, account.apiKey);
    const call = tab.waitForRequest((request) => request.method() === 'POST' && request.headers()['next-action'] !== undefined && (request.postData() ?? '').includes('versions'));
    await tab.getByRole('button', { name: 'Compare renders' }).click();
    const action = await call;
    const comparison = tab.getByTestId('version-comparison');
    await expect.poll(() => comparison.getByRole('img').count(), { timeout: 90_000 }).toBe(3);

    const other = await newAccount({ plan: 'scale', credits: 100 });
    await timedPdfs(other.apiKey, 2);
    const idle = median(await timedPdfs(other.apiKey, 9));

    // sixteen replays at once (fewer than the preview bucket holds, so that bucket refuses none)
    const headers = Object.fromEntries(Object.entries(action.headers()).filter(([name]) => ['next-action', 'next-router-state-tree', 'content-type', 'accept'].includes(name)));
    const replays = tab.evaluate(
      async ({ url, headers, body }) => Promise.all(Array.from({ length: 16 }, async () => (await fetch(url, { method: 'POST', headers, body })).text())),
      { url: action.url(), headers, body: action.postData() ?? '' },
    );
    const during = median(await timedPdfs(other.apiKey, 9));
    const answers = await replays;

    const compared = answers.filter((text) => text.includes('changedShare'));
    const refused = answers.filter((text) => text.includes('"code":"rate_limited"'));
    // the budget holds eight unbilled renders (four comparisons), one comparison already spent
    expect(compared.length).toBeLessThanOrEqual(4);
    expect(refused.length).toBeGreaterThanOrEqual(12);
    expect(compared.length + refused.length).toBe(16);
    // never billed, and never more unbilled jobs than admitted comparisons made
    const jobs = await serviceDb().renderJob.findMany({ where: { accountId: account.accountId }, select: { credit: true } });
    expect(jobs.every((job) => job.credit === 'none')).toBe(true);
    expect(jobs.length).toBe(2 * (1 + compared.length));
    expect(during, `PDF p50 idle ${idle.toFixed(0)} ms, during the replays ${during.toFixed(0)} ms`).toBeLessThanOrEqual(3 * idle + 500);
  }, 240_000);
});
