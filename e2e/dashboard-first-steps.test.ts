// A new account's first visit in a real browser: the overview's first-steps list, each step
// done the way a user does it; the credits the overview and the Account page state; and the
// Developers quick start's copy button, whose command is run as pasted.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api, baseUrl } from './support/api.ts';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/browser.ts';

/** Server actions and pages of a cold web process can take seconds on a busy machine. */
const wait = { timeout: 60_000 };

/** Waits until React has hydrated the element (its props are attached), so a click acts through the page's script. */
async function hydrated(locator: Locator) {
  await expect.poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps'))), wait).toBe(true);
  return locator;
}

/** Which of the overview's first steps are ticked off, in order. */
async function stepsDone(page: Page): Promise<boolean[]> {
  await page.goto('/dashboard');
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  return page.getByTestId('first-step').evaluateAll((items) => items.map((item) => item.getAttribute('data-done') === 'true'));
}

/** Runs a command the way a shell a user pastes into would, and returns what it printed. */
async function pasted(command: string): Promise<string> {
  const { stdout } = await promisify(execFile)('sh', ['-c', command], { timeout: 120_000 });
  return stdout;
}

/** The job a render command answered, followed until it has finished (a busy machine may answer 202 first). */
async function finishedJob(answer: string, key: string): Promise<{ id: string; status: string }> {
  const job = JSON.parse(answer) as { id: string; status: string };
  expect(job.id).toMatch(/^pdf_/);
  let current = job;
  await expect
    .poll(async () => {
      current = (await api(`/v1/pdf/${job.id}`, { key })).body;
      return ['succeeded', 'failed', 'cancelled'].includes(current.status);
    }, { timeout: 120_000 })
    .toBe(true);
  return current;
}

describe('first steps', () => {
  const browser = useBrowser();

  it('a new account sees four first steps; each is ticked off once done, and the list goes away after the last', async () => {
    const page = browser.page();
    await signIn(page, { plan: 'free', credits: 10 });
    const list = page.getByRole('list', { name: 'First steps' });
    await list.waitFor();
    expect(await list.getByTestId('first-step').allTextContents()).toEqual([
      expect.stringContaining('Make a template from the gallery'),
      expect.stringContaining('Render it'),
      expect.stringContaining('Create an API key'),
      expect.stringContaining('Add a webhook'),
    ]);
    expect(await stepsDone(page)).toEqual([false, false, false, false]);
    await expectAccessible(page);
    await screenshot(page, 'overview-first-steps');

    // a template from the gallery, through the step's own link
    await page.getByRole('link', { name: 'Make a template from the gallery' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/templates/gallery', wait);
    await (await hydrated(page.getByRole('form', { name: 'Use the Invoice template' }).getByRole('button', { name: 'Use this template' }))).click();
    await expect.poll(() => new URL(page.url()).pathname, wait).toMatch(/^\/dashboard\/templates\/tpl_/);
    const editor = new URL(page.url()).pathname;
    expect(await stepsDone(page)).toEqual([true, false, false, false]);
    expect(await page.getByTestId('first-step').first().textContent()).toContain('Done');

    // rendered in the editor's test render
    await page.goto(editor);
    await (await hydrated(page.getByRole('button', { name: 'Render', exact: true }))).click();
    await page.getByTestId('test-render-download').waitFor(wait);
    expect(await stepsDone(page)).toEqual([true, true, false, false]);

    // a key of its own on the Developers page
    await page.getByRole('link', { name: 'Create an API key' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/developers', wait);
    await page.getByLabel('Name of the new key').fill('first key');
    await (await hydrated(page.getByRole('button', { name: 'Create key' }))).click();
    await page.getByTestId('secret-value').waitFor(wait);
    expect(await stepsDone(page)).toEqual([true, true, true, false]);

    // a webhook destination: the last step, and the list is gone
    await page.getByRole('link', { name: 'Add a webhook' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/developers', wait);
    await page.getByLabel('Endpoint URL').fill('https://93.184.215.14/hooks/renders');
    await (await hydrated(page.getByRole('button', { name: 'Add destination' }))).click();
    await page.getByTestId('secret-value').waitFor(wait);
    expect(await stepsDone(page)).toEqual([]);
    expect(await page.getByRole('heading', { name: 'First steps' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Credits' }).count()).toBe(1);
  });

  it('an account that has done them all does not see the list', async () => {
    const page = browser.page();
    const account = await signIn(page, { plan: 'scale', credits: 10 });
    const template = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { name: 'Hello', source: '<h1>Hello {{ name }}</h1>' } });
    expect(template.status).toBe(201);
    const render = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { template_id: template.body.id, data: { name: 'Ada' }, wait: false } });
    expect(render.status).toBe(202);
    expect((await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'second' } })).status).toBe(201);
    expect((await api('/v1/webhooks', { method: 'POST', key: account.apiKey, body: { url: 'https://93.184.215.14/hook' } })).status).toBe(201);
    expect(await stepsDone(page)).toEqual([]);
  });
});

describe('credits', () => {
  const browser = useBrowser();

  it('a scale account’s overview shows its monthly allowance, as the Account page does', async () => {
    const page = browser.page();
    await signIn(page, { plan: 'scale', credits: 100 });
    const subscription = page.getByTestId('balance-subscription');
    // a new account's first month is already under way: its allowance arrives on the 1st
    await expect.poll(() => subscription.textContent()).toBe('0 of 25,000 a month');
    expect(await page.getByTestId('balance-trial').textContent()).toBe('100');
    // a paid plan has no free monthly credits: no bucket that can only ever show 0
    expect(await page.getByTestId('balance-free_monthly').count()).toBe(0);
    await expectAccessible(page);

    await page.goto('/dashboard/account');
    await expect.poll(() => page.getByTestId('monthly-credits').textContent()).toBe('25,000');
  });

  it('a free account without an email address sees the same condition for its free credits on both pages', async () => {
    const page = browser.page();
    await signIn(page, { plan: 'free', credits: 0 });
    await expect.poll(() => page.getByTestId('balance-free_monthly').textContent()).toBe('0');
    expect(await page.getByText('50 each month once your email address is confirmed').count()).toBe(1);
    expect(await page.getByTestId('balance-subscription').count()).toBe(0);

    await page.goto('/dashboard/account');
    await expect.poll(() => page.getByTestId('monthly-credits').textContent()).toBe('50 free, once your email address is confirmed');
  });
});

describe('quick start', () => {
  const browser = useBrowser();

  it('copies a command that works when pasted: the key as a placeholder, or the key just created in full', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await browser.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.goto('/dashboard/developers');
    const quickStart = page.getByRole('region', { name: 'Quick start' });
    const copy = async () => {
      await (await hydrated(quickStart.getByRole('button', { name: 'Copy command' }))).click();
      await expect.poll(() => quickStart.getByRole('status').textContent()).toBe('Copied to the clipboard');
      return page.evaluate(() => navigator.clipboard.readText());
    };

    // before: a placeholder named in the text beside it, never a cut-off key
    const withPlaceholder = await copy();
    expect(withPlaceholder).toBe(await page.getByTestId('quick-start').textContent());
    expect(withPlaceholder).toContain('Bearer YOUR_API_KEY');
    expect(withPlaceholder).not.toContain('…');
    expect(await quickStart.textContent()).toContain('Replace YOUR_API_KEY with your key');
    const first = await finishedJob(await pasted(withPlaceholder.replace('YOUR_API_KEY', account.apiKey)), account.apiKey);
    expect(first.status).toBe('succeeded');

    // right after a key is created, the command holds it whole and runs as it is
    await page.getByLabel('Name of the new key').fill('pasted key');
    await (await hydrated(page.getByRole('button', { name: 'Create key' }))).click();
    const secret = (await page.getByTestId('secret-value').textContent(wait)) ?? '';
    expect(secret).toMatch(/^svc_sk_v1_[0-9a-f]{64}$/);
    await expect.poll(() => page.getByTestId('quick-start').textContent()).toContain(`Bearer ${secret}`);
    const withKey = await copy();
    expect(withKey).toContain(`Bearer ${secret}`);
    const second = await finishedJob(await pasted(withKey), secret);
    expect(second.status).toBe('succeeded');
    await expectAccessible(page);

    // the secret is not kept: after a reload the placeholder is back
    await page.reload();
    await expect.poll(() => page.getByTestId('quick-start').textContent()).toContain('Bearer YOUR_API_KEY');
    expect(await page.content()).not.toContain(secret);
  });
});
