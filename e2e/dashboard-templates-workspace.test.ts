// The template editor as a workspace on a 1400x900 screen: it fits without the page scrolling,
// source and preview fill the height, the side panel's tabs, the data form's labels from the
// schema, saving without losing the cursor, the scroll or the notice, and a starter opening on
// its HTML.
import type { Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { serviceDb } from './support/api.ts';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/browser.ts';

/** Server actions and pages of a cold web process can take seconds. */
const wait = { timeout: 60_000 };

async function hydrated(locator: Locator) {
  await expect.poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps'))), wait).toBe(true);
  return locator;
}

const preview = (page: Page) => page.frameLocator('iframe[title="Template preview"]');
const viewport = { width: 1400, height: 900 };
const cramped = '<div id="cramped" data-svc-fit="shrink" data-svc-fit-min="10" style="font-size: 24px; width: 60px; height: 24px; overflow: hidden">Paid with thanks</div>';

/** How far the page itself scrolls, down and sideways (0 when it fits the window). */
const pageOverflow = (page: Page) =>
  page.evaluate(() => ({
    down: Math.max(document.documentElement.scrollHeight, document.body.scrollHeight) - window.innerHeight,
    sideways: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth,
  }));

/** The line number the editor's cursor stands on (the gutter marks it). */
const cursorLine = (page: Page) => page.locator('.cm-activeLineGutter').first().textContent();
const editorScroll = (page: Page) => page.locator('.cm-scroller').evaluate((element) => element.scrollTop);

async function openInvoice(page: Page) {
  await page.goto('/dashboard/templates/gallery');
  await (await hydrated(page.getByRole('form', { name: 'Use the Invoice template' }).getByRole('button', { name: 'Use this template' }))).click();
  await expect.poll(() => new URL(page.url()).pathname, wait).toMatch(/^\/dashboard\/templates\/tpl_/);
  await expect.poll(() => preview(page).getByText('Acme Logistics Ltd', { exact: true }).count(), wait).toBe(1);
  await page.locator('.cm-line').first().waitFor(wait);
}

describe('template editor workspace', () => {
  const browser = useBrowser({ viewport });

  it('fits a 1400x900 screen with source and preview at full height, opens a starter on its HTML, and offers each tool in a tab', async () => {
    const page = browser.page();
    await signIn(page);
    await openInvoice(page);

    // the starter opens on its markup, at the top
    const firstLines = await page.locator('.cm-line').evaluateAll((lines) => lines.slice(0, 4).map((line) => line.textContent));
    expect(firstLines).toEqual(['<!doctype html>', '<html lang="en">', '<head>', '<meta charset="utf-8">']);
    expect(await editorScroll(page)).toBe(0);

    // the page does not scroll; the source and the preview reach down to the bottom of the window
    expect(await pageOverflow(page)).toEqual({ down: 0, sideways: 0 });
    const source = (await page.getByRole('region', { name: /^Source/ }).boundingBox())!;
    const livePreview = (await page.getByRole('region', { name: 'Live preview' }).boundingBox())!;
    for (const pane of [source, livePreview]) {
      expect(pane.y + pane.height).toBeGreaterThan(viewport.height - 40);
      expect(pane.y + pane.height).toBeLessThanOrEqual(viewport.height);
      expect(pane.height).toBeGreaterThan(650);
    }
    expect(source.x + source.width).toBeLessThanOrEqual(livePreview.x);
    // the code editor fills its pane: no empty space under it
    const editor = (await page.locator('.cm-editor').boundingBox())!;
    expect(source.y + source.height - (editor.y + editor.height)).toBeLessThan(4);
    // the preview shows the invoice, scaled to its pane
    const frame = (await page.locator('iframe[title="Template preview"]').boundingBox())!;
    expect(frame.width).toBeGreaterThan(250);
    expect(frame.x + frame.width).toBeLessThanOrEqual(livePreview.x + livePreview.width);

    // the data form is labelled with the schema's titles and descriptions, not the property names
    const tools = page.getByRole('tablist', { name: 'Template tools' });
    expect(await tools.getByRole('tab', { selected: true }).textContent()).toBe('Data');
    const taxRate = page.getByLabel('Tax rate (%)');
    await taxRate.waitFor(wait);
    expect(await taxRate.inputValue()).toBe('20');
    const data = page.getByRole('tabpanel', { name: 'Data' });
    expect(await data.getByText('Added to the subtotal; leave it out for none.').isVisible()).toBe(true);
    expect(await taxRate.getAttribute('aria-describedby')).toContain('root_invoice_tax_rate__description');
    expect(await page.getByLabel('Issue date').inputValue()).toBe('3 March 2026');
    const labels = await page.locator('.svc-schema-form label').allTextContents();
    expect(labels.filter((label) => /_/.test(label))).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, 'templates-editor');
    // an edit in the form reaches the preview
    await page.getByLabel('Invoice number').fill('INV-7');
    await expect.poll(() => preview(page).getByText('INV-7', { exact: true }).count(), wait).toBeGreaterThan(0);

    // each tab shows its panel, and the page still does not scroll
    const open = async (name: string) => {
      await (await hydrated(tools.getByRole('tab', { name }))).click();
      expect(await tools.getByRole('tab', { name }).getAttribute('aria-selected')).toBe('true');
      return page.getByRole('tabpanel', { name });
    };
    const schema = await open('Schema');
    expect(await schema.getByRole('textbox', { name: 'JSON schema' }).inputValue()).toContain('"Tax rate (%)"');
    const versions = await open('Versions');
    expect(await versions.getByRole('list', { name: 'Versions, newest first' }).textContent()).toContain('being edited');
    const render = await open('Test render');
    expect(await render.getByRole('button', { name: 'Render', exact: true }).isVisible()).toBe(true);
    const fonts = await open('Fonts');
    expect(await fonts.locator('li[data-family="Carlito"]').isVisible()).toBe(true);
    const details = await open('Details');
    expect(await details.getByLabel('Name', { exact: true }).inputValue()).toBe('Invoice');
    expect(await page.getByRole('tabpanel', { name: 'Data' }).isVisible()).toBe(false);
    expect(await pageOverflow(page)).toEqual({ down: 0, sideways: 0 });
    // a document has no canvas sizes to offer
    expect(await tools.getByRole('tab', { name: 'Sizes' }).count()).toBe(0);
    // the arrow keys move between tabs; the data typed before is still there
    await tools.getByRole('tab', { name: 'Details' }).press('Home');
    expect(await tools.getByRole('tab', { selected: true }).textContent()).toBe('Data');
    await tools.getByRole('tab', { name: 'Data' }).press('ArrowRight');
    expect(await tools.getByRole('tab', { selected: true }).textContent()).toBe('Schema');
    await tools.getByRole('tab', { name: 'Schema' }).press('ArrowLeft');
    expect(await page.getByLabel('Invoice number').inputValue()).toBe('INV-7');
    await expectAccessible(page);
  }, 240_000);

  it('saves without moving the cursor or the scroll, keeps the notice, and shows the test render problems beside the preview', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await openInvoice(page);

    // the cursor deep in the source: before the end of the body, near the end
    await page.locator('.cm-line').first().click();
    await page.keyboard.press('Control+End');
    const end = page.locator('.cm-line').filter({ hasText: /^<\/body>$/ });
    await end.waitFor(wait);
    await end.click();
    await page.keyboard.press('Home');
    // a box too small for its text: the test render's report will find it
    await page.keyboard.insertText(`${cramped}\n`);
    const line = await cursorLine(page);
    expect(Number(line)).toBeGreaterThan(100);
    const scrolled = await editorScroll(page);
    expect(scrolled).toBeGreaterThan(500);
    await expect.poll(() => page.getByText('Unsaved changes', { exact: true }).isVisible(), wait).toBe(true);

    await page.getByRole('button', { name: 'Save as new version' }).click();
    await expect.poll(() => page.getByText('Saved as version 2.').isVisible(), wait).toBe(true);
    // the page then stands on the saved version; the notice, the cursor and the scroll stay
    await expect.poll(() => new URL(page.url()).searchParams.get('saved'), wait).toBe('2');
    await expect.poll(() => page.getByText('Editing version 2').isVisible(), wait).toBe(true);
    expect(await page.getByText('Unsaved changes', { exact: true }).count()).toBe(0);
    expect(await page.getByText('Saved as version 2.').isVisible()).toBe(true);
    expect(await cursorLine(page)).toBe(line);
    expect(await editorScroll(page)).toBe(scrolled);
    expect(await pageOverflow(page)).toEqual({ down: 0, sideways: 0 });

    // typing goes on where it stopped, and Ctrl+S saves from the editor
    await page.getByRole('textbox', { name: 'Template source' }).focus();
    await page.keyboard.insertText('<!-- again -->');
    await page.keyboard.press('Control+S');
    await expect.poll(() => page.getByText('Saved as version 3.').isVisible(), wait).toBe(true);
    await expect.poll(() => page.getByText('Editing version 3').isVisible(), wait).toBe(true);
    expect(await cursorLine(page)).toBe(line);
    const template = await serviceDb().template.findFirstOrThrow({ where: { accountId: account.accountId } });
    const saved = await serviceDb().templateVersion.findUniqueOrThrow({ where: { templateId_version: { templateId: template.id, version: 3 } } });
    expect(saved.source).toContain(`${cramped}\n<!-- again --></body>\n</html>`);

    // a test render of it: what its report found shows beside the preview too
    await (await hydrated(page.getByRole('tab', { name: 'Test render' }))).click();
    await page.getByRole('button', { name: 'Render', exact: true }).click();
    const beside = page.getByTestId('preview-render-problems');
    await beside.waitFor({ timeout: 90_000 });
    expect(await beside.textContent()).toContain('Test render of version 3 found problems');
    const problem = 'Text shrank to its smallest size (10 px) and still does not fit its box';
    expect(await beside.getByTestId('report-problem').first().textContent()).toContain(problem);
    expect(await page.getByRole('tabpanel', { name: 'Test render' }).getByTestId('report-problem').first().textContent()).toContain(problem);
    expect(await page.getByText('Saved as version 3.').isVisible()).toBe(true);
    expect(await pageOverflow(page)).toEqual({ down: 0, sideways: 0 });
    await expectAccessible(page);
  }, 240_000);
});
