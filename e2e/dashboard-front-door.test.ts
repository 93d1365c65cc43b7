// The front door in a real browser: the home page with the public figures and its links, the
// status page, the API reference drawn by Scalar from the served contract (with nothing loaded
// from another origin, and a curl example that works as pasted), and the favicon.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page, Request } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, newAccount } from './support/api.ts';
import { expectAccessible, screenshot, useBrowser } from './support/browser.ts';

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

    // an operation's title from the contract, as Scalar draws it
    const summary = contract.paths['/v1/keys'].get.summary as string;
    await expect.poll(() => page.getByRole('heading', { name: summary, exact: true }).first().isVisible(), { timeout: 60_000 }).toBe(true);

    // the error codes table, from the contract's one table
    const table = page.locator('table').filter({ hasText: 'HTTP status' }).first();
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 30_000 }).toBeGreaterThan(100);
    expect(await table.textContent()).toContain('insufficient_credits');
    await expect.poll(() => page.getByRole('heading', { name: 'Webhook signatures' }).first().isVisible()).toBe(true);
    expect(await page.getByText('svc-signature: t=').first().isVisible()).toBe(true);

    await expectAccessible(page);
    await screenshot(page, 'api-reference');

    // the curl example of listing keys names this service and works as pasted with a real key
    await page.goto(`/docs#tag/api-keys/get/v1/keys`);
    const example = page.locator('.scalar-codeblock-pre, pre').filter({ hasText: `curl ${baseUrl()}/v1/keys` }).first();
    await expect.poll(() => example.textContent(), { timeout: 60_000 }).toContain(baseUrl());
    const command = (await example.innerText()).replace('YOUR_SECRET_TOKEN', (await newAccount()).apiKey);
    const { stdout } = await run('sh', ['-c', `${command} --silent --show-error --fail`]);
    expect(JSON.parse(stdout).data).toHaveLength(1);

    expect(origins(requests)).toEqual([new URL(baseUrl()).origin]);
  });
});
