// The templates area of the dashboard in a real browser: create, edit with a live preview,
// errors at their line, save versions, compare them, render and download; the starter gallery.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { installedFontFamilies } from '@svc/rules';
import { describe, expect, it } from 'vitest';
import { serviceDb } from './support/api.ts';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/browser.ts';
import { pdfText } from './support/files.ts';

/** Replaces the whole source in the CodeMirror editor, as pasting would (no auto-closed tags). */
async function replaceSource(page: Page, text: string) {
  const content = page.getByRole('textbox', { name: 'Template source' });
  await content.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

/** Waits until React has hydrated the element (its props are attached), so a click acts through the page's script. */
async function hydrated(locator: Locator) {
  await expect.poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps'))), wait).toBe(true);
  return locator;
}

/** Server actions and pages of a cold web process can take seconds: polls wait up to 15 s. */
const wait = { timeout: 60_000 };

const preview = (page: Page) => page.frameLocator('iframe[title="Template preview"]');

describe('dashboard templates', () => {
  const browser = useBrowser({ viewport: { width: 1400, height: 1000 } });

  it('creates a template, previews as you type, marks an error at its line, saves, compares and downloads a render', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await page.goto('/dashboard/templates');
    await expect.poll(() => page.getByText('No templates yet.').isVisible(), wait).toBe(true);
    await page.getByLabel('Name', { exact: true }).fill('Welcome letter');
    await (await hydrated(page.getByRole('button', { name: 'Create template' }))).click();
    await expect.poll(() => new URL(page.url()).pathname, wait).toMatch(/^\/dashboard\/templates\/tpl_/);
    const templateId = new URL(page.url()).pathname.split('/').pop()!;

    // the skeleton previews in a frame without script or network
    await expect.poll(() => preview(page).locator('h1').textContent(), wait).toBe('Hello world');
    const frame = page.locator('iframe[title="Template preview"]');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('srcdoc')).toContain(`default-src 'none'`);

    // typing changes the preview (debounced), with the data from the JSON panel
    await page.getByLabel('Data as JSON').fill('{"name": "Ada Lovelace", "items": ["Notes", "Engine"]}');
    await replaceSource(page, '<!doctype html>\n<html lang="en">\n<body>\n<h1>Dear {{ name }}</h1>\n<ul>{% for item in items %}<li>{{ item }}</li>{% endfor %}</ul>\n</body>\n</html>\n');
    await expect.poll(() => preview(page).locator('h1').textContent(), wait).toBe('Dear Ada Lovelace');
    await expect.poll(() => preview(page).locator('li').count(), wait).toBe(2);

    // a syntax error is listed with its line and column, and its line is marked in the editor
    await replaceSource(page, '<!doctype html>\n<html lang="en">\n<body>\n<h1>Dear {{ name }}</h1>\n{% if %}\n</body>\n</html>\n');
    const errors = page.getByTestId('preview-errors');
    await expect.poll(() => errors.textContent(), wait).toContain('template_syntax_error');
    expect(await errors.textContent()).toMatch(/Line 5, column \d+/);
    await expect.poll(() => page.locator('.cm-svc-error-line').count(), wait).toBe(1);
    expect(await page.locator('.cm-svc-error-line').textContent()).toContain('{% if %}');
    // the last good preview stays on screen meanwhile
    expect(await preview(page).locator('h1').textContent()).toBe('Dear Ada Lovelace');

    await replaceSource(page, '<!doctype html>\n<html lang="en">\n<body>\n<h1>Dear {{ name }}</h1>\n<p>Your order of {{ items | length }} items has shipped.</p>\n</body>\n</html>\n');
    await expect.poll(() => preview(page).locator('p').textContent(), wait).toBe('Your order of 2 items has shipped.');
    await expect.poll(() => page.locator('.cm-svc-error-line').count(), wait).toBe(0);

    // nothing in the preview reaches the network: a local server sees no request
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await replaceSource(
        page,
        `<!doctype html>\n<html lang="en">\n<head><link rel="stylesheet" href="${origin}/style.css"><style>@font-face { font-family: X; src: url(${origin}/font.woff2) } body { font-family: X; background: url(${origin}/bg.png) }</style></head>\n<body>\n<h1>Dear {{ name }}, offline</h1>\n<img src="${origin}/logo.png" alt="">\n</body>\n</html>\n`,
      );
      await expect.poll(() => preview(page).locator('h1').textContent(), wait).toBe('Dear Ada Lovelace, offline');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(requests).toEqual([]);
    } finally {
      server.close();
    }
    await replaceSource(page, '<!doctype html>\n<html lang="en">\n<body>\n<h1>Dear {{ name }}</h1>\n<p>Your order of {{ items | length }} items has shipped.</p>\n</body>\n</html>\n');
    await expect.poll(() => preview(page).locator('p').textContent(), wait).toBe('Your order of 2 items has shipped.');

    await page.getByRole('button', { name: 'Save as new version' }).click();
    await expect.poll(() => page.getByText('Saved as version 2.').isVisible(), wait).toBe(true);
    // the editor then opens on the version it saved, and the notice stays
    await expect.poll(() => new URL(page.url()).searchParams.get('saved'), wait).toBe('2');
    await expect.poll(() => page.getByText('Editing version 2').isVisible(), wait).toBe(true);
    expect(await page.getByText('Saved as version 2.').isVisible()).toBe(true);
    const stored = await serviceDb().templateVersion.findUniqueOrThrow({ where: { templateId_version: { templateId, version: 2 } } });
    expect(stored.source).toContain('has shipped');

    // version history: the two versions rendered side by side, with the changed pixels
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByRole('button', { name: 'Compare renders' }).click();
    const comparison = page.getByTestId('version-comparison');
    await expect.poll(() => comparison.getByRole('img').count(), { timeout: 60_000 }).toBe(3);
    expect(await comparison.getByRole('status').textContent()).toMatch(/% of the pixels changed/);

    // a test render of the saved version, downloaded as a PDF with the typed text
    await page.getByRole('tab', { name: 'Test render' }).click();
    await page.getByRole('button', { name: 'Render', exact: true }).click();
    const link = page.getByTestId('test-render-download');
    await link.waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const text = pdfText(readFileSync(await download.path()));
    expect(text).toContain('Dear Ada Lovelace');
    expect(text).toContain('Your order of 2 items has shipped.');
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId, templateId, templateVersion: 2, status: 'succeeded' } })).toBe(1);
    // beside it, what its render report found: nothing, with the way to the full report
    expect(await page.getByTestId('test-render-clean').textContent()).toContain('No problems found.');
    await expectAccessible(page);
  }, 180_000);

  it('lists the installed fonts with a sample each and inserts a font-family at the cursor', async () => {
    const page = browser.page();
    await signIn(page);
    await page.goto('/dashboard/templates');
    await page.getByLabel('Name', { exact: true }).fill('Fonts');
    await (await hydrated(page.getByRole('button', { name: 'Create template' }))).click();
    await expect.poll(() => new URL(page.url()).pathname, wait).toMatch(/^\/dashboard\/templates\/tpl_/);
    await expect.poll(() => preview(page).locator('h1').textContent(), wait).toBe('Hello world');

    await (await hydrated(page.getByRole('tab', { name: 'Fonts' }))).click();
    const picker = page.getByTestId('font-picker');
    const rows = picker.locator('li[data-family]');
    expect(await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-family')))).toEqual(
      ['sans-serif', 'serif', 'monospace', 'emoji'].flatMap((category) => installedFontFamilies.filter((font) => font.category === category).map((font) => font.family)),
    );
    const carlito = picker.locator('li[data-family="Carlito"]');
    expect(await carlito.textContent()).toContain('font-family: Carlito, Calibri, sans-serif;');
    expect(await carlito.getByText(installedFontFamilies.find((font) => font.family === 'Carlito')!.sample).evaluate((element) => element.style.fontFamily)).toBe('Carlito, Calibri, sans-serif');

    // the declaration lands where the cursor stands: inside the style attribute being typed
    await replaceSource(page, '<!doctype html>\n<html lang="en">\n<body>\n<p style="');
    await (await hydrated(carlito.getByRole('button', { name: 'Insert font-family Carlito at the cursor' }))).click();
    await page.keyboard.insertText('">In Carlito</p>\n</body>\n</html>\n');
    await expect.poll(() => preview(page).locator('p').evaluate((element) => element.style.fontFamily), wait).toBe('Carlito, Calibri, sans-serif');
    expect(await preview(page).locator('p').textContent()).toBe('In Carlito');
    await expectAccessible(page);
  }, 180_000);

  it('copies a starter from the gallery into the account, opening it with its sample data', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await page.goto('/dashboard/templates/gallery');
    const starters = page.getByRole('list', { name: 'Starters' }).getByRole('listitem');
    await expect.poll(() => starters.count(), wait).toBeGreaterThanOrEqual(6);
    await expectAccessible(page);
    await screenshot(page, 'templates-gallery');

    await (await hydrated(page.getByRole('form', { name: 'Use the Invoice template' }).getByRole('button', { name: 'Use this template' }))).click();
    await expect.poll(() => new URL(page.url()).pathname, wait).toMatch(/^\/dashboard\/templates\/tpl_/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), wait).toBe('Invoice');
    await expect.poll(() => preview(page).getByText('Acme Logistics Ltd', { exact: true }).count(), wait).toBe(1);
    // the form generated from the schema edits the same data
    const customer = page.locator('#root_customer_name');
    await customer.fill('Globex Corporation');
    await expect.poll(() => preview(page).getByText('Globex Corporation').count(), wait).toBeGreaterThan(0);
    await expectAccessible(page);

    const saved = await serviceDb().template.findFirstOrThrow({ where: { accountId: account.accountId } });
    expect(saved).toMatchObject({ name: 'Invoice', tags: ['invoice', 'finance', 'pdf'], latestVersion: 1 });

    // the list finds it by tag, and archived templates have their own filter
    await page.goto('/dashboard/templates');
    await page.getByLabel('Tag').selectOption('finance');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Invoice', exact: true }).count(), wait).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'templates-list');
    await page.getByLabel('Show').selectOption('archived');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByText('No template matches these filters.').isVisible(), wait).toBe(true);
  }, 240_000);
  it('shows the pages and sizes of a canvas starter, adapts it to a new size with a thumbnail and saves it with the next version', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await page.goto('/dashboard/templates/gallery');
    await (await hydrated(page.getByRole('form', { name: 'Use the Social card template' }).getByRole('button', { name: 'Use this template' }))).click();
    await expect.poll(() => new URL(page.url()).pathname, wait).toMatch(/^\/dashboard\/templates\/tpl_/);
    await expect.poll(() => preview(page).getByText('How we render a million invoices a day').count(), wait).toBe(1);
    // the card is painted with its colours from the sample data
    expect(await preview(page).locator('.card').evaluate((element) => getComputedStyle(element).backgroundImage)).toMatch(/linear-gradient\(.*rgb\(29, 43, 100\)/);
    await (await hydrated(page.getByRole('tab', { name: 'Sizes' }))).click();
    expect(await page.getByRole('list', { name: 'Canvas pages' }).textContent()).toContain('card — Card');
    expect(await page.getByRole('list', { name: 'Saved sizes' }).textContent()).toContain('Square post (1080×1080, square)');

    await page.getByRole('button', { name: '+ Story 1080×1920' }).click();
    await page.getByRole('button', { name: 'Adapt', exact: true }).click();
    const adapted = page.getByRole('list', { name: 'Adapted sizes' });
    await adapted.waitFor({ timeout: 60_000 });
    const thumbnail = page.frameLocator('iframe[title="Thumbnail 1080×1920"]');
    await expect.poll(() => thumbnail.getByText('How we render a million invoices a day').count(), wait).toBe(1);
    await adapted.getByRole('button', { name: 'Keep as saved size' }).click();
    expect(await page.getByRole('list', { name: 'Saved sizes' }).textContent()).toContain('Story (1080×1920, story)');
    await expectAccessible(page);
    await screenshot(page, 'templates-canvas');

    await page.getByRole('button', { name: 'Save as new version' }).click();
    await expect.poll(() => page.getByText('Saved as version 2.').isVisible(), wait).toBe(true);
    const template = await serviceDb().template.findFirstOrThrow({ where: { accountId: account.accountId } });
    const saved = await serviceDb().templateVersion.findUniqueOrThrow({ where: { templateId_version: { templateId: template.id, version: 2 } } });
    expect((saved.sizes as { id: string; width: number; height: number }[]).map(({ id, width, height }) => [id, width, height])).toEqual([
      ['square', 1080, 1080],
      ['story', 1080, 1920],
    ]);

    // name and tags, then archive: the list's archived filter finds it
    await page.getByRole('tab', { name: 'Details' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Launch card');
    await page.getByLabel('Tags', { exact: true }).fill('social, launch');
    await page.getByRole('button', { name: 'Save name and tags' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), wait).toBe('Launch card');
    expect(await serviceDb().template.findUniqueOrThrow({ where: { id: template.id } })).toMatchObject({ name: 'Launch card', tags: ['social', 'launch'] });
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await expect.poll(async () => (await serviceDb().template.findUniqueOrThrow({ where: { id: template.id } })).archivedAt !== null, wait).toBe(true);
    await page.goto('/dashboard/templates?status=archived&tag=launch');
    await expect.poll(() => page.getByRole('link', { name: 'Launch card', exact: true }).count(), wait).toBe(1);
  }, 240_000);
});
