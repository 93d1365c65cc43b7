// The dashboard speaks to customers: every page a signed-in account can reach by its links is
// read as a person sees it, and none may show an environment variable's name, and no notice an
// HTTP status. The header names the account; a refused webhook address says why in words.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api, serviceDb } from './support/api.ts';
import { expectAccessible, signIn, useBrowser } from './support/browser.ts';

const environmentName = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g;
/** Placeholders the customer replaces with their own value (the quick start's key), not settings. */
const placeholders = new Set(['YOUR_API_KEY']);
const httpStatus = /\b[45]\d\d\b/;

/** What a person reads on the page: visible text, and each notice's text. */
async function wordsOf(page: Page): Promise<{ text: string; notices: string[] }> {
  const text = await page.locator('body').innerText();
  const notices = await page.locator('[role="alert"], [role="status"], [data-testid="ai-not-set-up"]').allInnerTexts();
  return { text, notices };
}

/** Same-origin dashboard links on the page, by path (queries are views of the same page). */
async function dashboardLinks(page: Page): Promise<string[]> {
  const hrefs = await page.locator('a[href^="/dashboard"]').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).pathname));
  return [...new Set(hrefs)];
}

describe('customer words on every dashboard page', () => {
  const browser = useBrowser();

  it('shows no environment variable names and no HTTP statuses on any page reached from the overview', async () => {
    const page = browser.page();
    const account = await signIn(page);
    // something on every kind of page: a render, a saved template, a brand kit, an AI build from a source
    const render = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>Words</p>' } });
    expect([200, 202]).toContain(render.status);
    const template = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { name: 'Letter', source: '<p>{{ name }}</p>' } });
    expect(template.status).toBe(201);
    const kit = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Plain', colours: ['#222222'] } });
    expect(kit.status).toBe(201);
    const build = await api('/v1/template-builds', {
      method: 'POST',
      key: account.apiKey,
      body: { brand_kit_id: kit.body.id, input: { type: 'source', source: '<!doctype html><p>{{ brand.name }}</p>' } },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(build.status).toBeLessThan(300);

    const seen = new Set<string>();
    const queue = ['/dashboard'];
    while (queue.length > 0 && seen.size < 60) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      // links to files (downloads, thumbnails, a render's file) are not pages to read
      const probe = await page.request.get(path, { maxRedirects: 0 });
      if (!(probe.headers()['content-type'] ?? '').includes('text/html')) continue;
      await page.goto(path);
      // the page itself, not the loading state streamed before it (which has no heading)
      await page.locator('main h1').first().waitFor({ timeout: 60_000 });
      const { text, notices } = await wordsOf(page);
      const names = [...text.matchAll(environmentName)].map((match) => match[0]).filter((name) => !placeholders.has(name));
      expect(names, `environment variable names on ${path}`).toEqual([]);
      for (const notice of notices) expect(notice.match(httpStatus)?.[0], `an HTTP status in a notice on ${path}: ${notice}`).toBeUndefined();
      for (const link of await dashboardLinks(page)) if (!seen.has(link)) queue.push(link);
    }
    // the walk reached the pages of what was made above, not only the menu
    for (const expected of ['/dashboard/account', '/dashboard/developers', `/dashboard/templates/${template.body.id}`, `/dashboard/brand-kits/${kit.body.id}`, `/dashboard/ai/builds/${build.body.id}`]) {
      expect([...seen]).toContain(expected);
    }
    // some thirty pages, each rendered by the dashboard: minutes on a busy machine
  }, 300_000);

  it("names the account in the header: its email address, or its id while it has none", async () => {
    const page = browser.page();
    const account = await signIn(page);
    const label = page.getByTestId('account-label');
    await expect.poll(() => label.textContent()).toBe(`Account ${account.accountId}`);
    const email = `owner-${randomUUID()}@example.com`;
    await serviceDb().account.update({ where: { id: account.accountId }, data: { email, emailVerifiedAt: new Date(), emailMailbox: email } });
    await page.reload();
    await expect.poll(() => label.textContent()).toBe(email);
    expect(await label.getAttribute('href')).toBe('/dashboard/account');
  });

  it('says in words why a webhook address is refused, with no field names or codes in the sentence', async () => {
    const page = browser.page();
    await signIn(page);
    await page.goto('/dashboard/developers');
    await page.getByLabel('Endpoint URL').fill('https://127.0.0.1/hooks');
    await page.getByRole('button', { name: 'Add destination' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'cannot receive events' });
    await expect.poll(() => alert.locator('p').first().textContent(), { timeout: 60_000 }).toBe(
      'This endpoint URL cannot receive events: it points at the machine itself. Use a public address your receiver answers on.',
    );
    expect(await alert.textContent()).not.toMatch(/url\.\w+|loopback_address/);
    await page.getByLabel('Endpoint URL').fill('https://example.com:8443/hooks');
    await page.getByRole('button', { name: 'Add destination' }).click();
    await expect.poll(() => alert.locator('p').first().textContent(), { timeout: 60_000 }).toContain('it names a port other than the standard https port. Leave the port out of the address.');
    await expectAccessible(page);
  });
});
