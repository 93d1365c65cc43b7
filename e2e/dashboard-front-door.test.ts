// The front door in a real browser: the home page with the public figures and its links, the
// status page, the API reference drawn by Scalar from the served contract (with nothing loaded
// from another origin, and a curl example that works as pasted), and the favicon.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page, Request } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, newAccount } from './support/api.ts';
import { restErrorCodes } from '@svc/contracts';
import { expectAccessible, screenshot, screenshotDir, useBrowser } from './support/browser.ts';

const run = promisify(execFile);

/** Every request the page makes from now on (documents, scripts, styles, fonts, fetches, images). */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

const origins = (requests: Request[]) => [...new Set(requests.map((request) => new URL(request.url()).origin))].filter((origin) => origin !== 'null');

describe('front door', () => {
  const browser = useBrowser();

  it('the home page shows the public figures the API publishes, and its links lead somewhere', async () => {
    const page = browser.page();
    // the page and GET /v1/public-stats read the same five-minute figures; a refresh between
    // the two reads is possible, so both are read again until they agree
    await expect
      .poll(
        async () => {
          const stats = (await api('/v1/public-stats')).body;
          await page.goto('/');
          const served = await page.getByTestId('stat-renders-served').locator('dd span').getAttribute('data-value');
          return Number(served) === stats.renders_served ? stats : undefined;
        },
        { timeout: 60_000 },
      )
      .toBeDefined();
    const stats = (await api('/v1/public-stats')).body;
    const statusLabel = { operational: 'Operational', degraded: 'Degraded', downtime: 'Down', maintenance: 'Maintenance', unavailable: 'Unknown' }[
      stats.status as string
    ];
    await expect.poll(() => page.getByTestId('stat-status').locator('dd').textContent()).toBe(statusLabel);
    // the number in the browser's own format once hydrated (en-US)
    await expect.poll(() => page.getByTestId('stat-renders-served').locator('dd').textContent()).toBe(new Intl.NumberFormat('en-US').format(stats.renders_served));

    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('PDF and images');
    await expect.poll(() => page.getByRole('heading', { name: 'Testimonials' }).isVisible()).toBe(true);
    // the first request names the address the service answers on
    expect(await page.getByTestId('first-request').textContent()).toContain(`curl -X POST ${baseUrl()}/v1/pdf`);
    // the header's mark is the favicon's file
    expect(await page.getByRole('banner').locator('img').getAttribute('src')).toBe('/icon.svg');
    await expectAccessible(page);
    await screenshot(page, 'landing');

    const header = page.getByRole('navigation', { name: 'Site' });
    await header.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');

    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: 'Send a testimonial' }).click();
    await page.waitForURL((url) => url.pathname === '/testimonials');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Tell us how it went');

    await page.goto('/');
    await header.getByRole('link', { name: 'Status' }).click();
    await page.waitForURL((url) => url.pathname === '/status');
    await expect.poll(() => page.getByTestId('status-summary').textContent()).toContain(statusLabel);
    await expectAccessible(page);
    const json = await page.request.get(await page.getByRole('link', { name: '/v1/public-stats' }).getAttribute('href') ?? '');
    expect(Object.keys(await json.json()).sort()).toEqual(['gallery_templates', 'renders_served', 'status', 'uptime_days', 'uptime_percent']);

    await header.getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL((url) => url.pathname === '/docs');
  });

  it('serves the favicon the pages name', async () => {
    const page = browser.page();
    await page.goto('/');
    const href = await page.locator('link[rel="icon"]').first().getAttribute('href');
    expect(href).toMatch(/^\/icon\.svg/);
    const icon = await page.request.get(href!);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
    expect(await icon.text()).toContain('<svg');
  });

  it('the API reference shows the operations of the served contract, its error codes and the webhook recipe, all from its own origin', async () => {
    const page = browser.page();
    const requests = recordRequests(page);
    await page.goto('/docs');
    const contract = (await api('/v1/openapi.json')).body;
    expect(contract.servers).toEqual([{ url: baseUrl() }]);

    // the document's own sections: the error codes table (from the contract's one table) and the webhook recipe
    await expect.poll(() => page.getByRole('heading', { name: contract.info.title, exact: true }).first().isVisible(), { timeout: 120_000 }).toBe(true);
    const table = page.locator('table').filter({ hasText: 'HTTP status' }).first();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(restErrorCodes.length);
    expect(await table.locator('tr', { hasText: 'insufficient_credits' }).textContent()).toContain('402');
    await expect.poll(() => page.getByRole('heading', { name: 'Webhook signatures', exact: true }).first().isVisible()).toBe(true);
    expect(await page.getByText('svc-signature: t=').first().isVisible()).toBe(true);
    await expectAccessible(page);
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, 'api-reference.png') });

    // the curl examples name this service and work as pasted once a real key is put in
    const key = (await newAccount()).apiKey;
    const listKeys = await curlExample(page, 'API keys', contract.paths['/v1/keys'].get.summary, `${baseUrl()}/v1/keys?limit=`);
    expect(JSON.parse(await runCurl(listKeys, key)).data).toHaveLength(1);
    const renderPdf = await curlExample(page, 'PDF renders', contract.paths['/v1/pdf'].post.summary, `${baseUrl()}/v1/pdf`);
    expect(renderPdf).toContain('--request POST');
    const job = JSON.parse(await runCurl(renderPdf, key));
    expect(job.id).toMatch(/^pdf_/);
    expect(['succeeded', 'queued', 'running']).toContain(job.status);

    expect(origins(requests)).toEqual([new URL(baseUrl()).origin]);
  }, 300_000);
});

/** Opens an operation from Scalar's sidebar, sees its title, and returns the text of its curl example. */
async function curlExample(page: Page, tag: string, summary: string, address: string): Promise<string> {
  await page.getByText(tag, { exact: true }).first().click();
  await page.getByText(summary, { exact: true }).first().click();
  // the operation's title, as the served document names it
  await expect.poll(() => page.getByRole('heading', { name: summary, exact: true }).first().isVisible(), { timeout: 60_000 }).toBe(true);
  const example = page.locator('pre').filter({ hasText: `curl ` }).filter({ hasText: address }).first();
  await expect.poll(() => example.count(), { timeout: 60_000 }).toBe(1);
  return example.innerText();
}

/** Runs a copied curl command in a shell, with the key in place of Scalar's placeholder; its output. */
async function runCurl(command: string, key: string): Promise<string> {
  expect(command).toContain('YOUR_SECRET_TOKEN');
  const { stdout } = await run('sh', ['-c', `${command.trim().replace('YOUR_SECRET_TOKEN', key)} --silent --show-error --fail-with-body`], { timeout: 120_000 });
  return stdout;
}
