// The visual editor of a canvas template in a real browser: drag and resize a layer with the
// mouse, bind a text layer to a data field, colour it from the brand kit, undo and redo; the
// source (the code view) and the live preview follow every step.
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api } from './support/api.ts';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/browser.ts';

/** Server actions and pages of a cold web process can take seconds. */
const wait = { timeout: 60_000 };

const canvasSource = (kitId: string, width = 800, height = 400) => `<!doctype html>
<html lang="en">
<head>
<meta name="svc-canvas" content="${width}x${height}">
<meta name="svc-brand-kit" content="${kitId}">
<style>body { margin: 0 } .page { position: relative; width: ${width}px; height: ${height}px; overflow: hidden; background: #f1f5f9; font-family: "Liberation Sans", sans-serif }</style>
</head>
<body>
<div class="page" data-svc-page="card" data-svc-page-name="Card">
<div class="badge" style="position: absolute; left: 40px; top: 40px; width: 200px; height: 80px; background-color: #1d4ed8"></div>
<h1 style="position: absolute; left: 40px; top: 200px; width: 600px; height: 60px; margin: 0; font-size: 40px">Hello canvas</h1>
</div>
</body>
</html>
`;

const preview = (page: Page) => page.frameLocator('iframe[title="Template preview"]');
const visualCanvas = (page: Page) => page.frameLocator('iframe[title="Visual canvas"]');
const inlineStyle = (frame: FrameLocator, selector: string, property: string) =>
  frame.locator(selector).evaluate((element, name) => (element as HTMLElement).style.getPropertyValue(name), property);

/** Waits until React has hydrated the element, so a click acts through the page's script. */
async function hydrated(locator: Locator) {
  await expect.poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps'))), wait).toBe(true);
  return locator;
}

async function showView(page: Page, view: 'Visual' | 'Code') {
  await page.getByRole('group', { name: 'Source view' }).getByRole('button', { name: view }).click();
  if (view === 'Visual') await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');
}

/** The source as the code view shows it. */
async function codeText(page: Page): Promise<string> {
  await showView(page, 'Code');
  const lines = await page.getByTestId('source-editor').locator('.cm-line').allTextContents();
  await showView(page, 'Visual');
  return lines.join('\n');
}

/** Presses the mouse at `from` and releases it at `to`, moving in steps as a hand would. */
async function dragBy(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let step = 1; step <= 8; step += 1) await page.mouse.move(from.x + (dx * step) / 8, from.y + (dy * step) / 8);
  await page.mouse.up();
}

describe('dashboard visual editor', () => {
  const browser = useBrowser({ viewport: { width: 1400, height: 1000 } });

  it('drags, resizes, binds a field, colours from the brand kit, undoes and redoes, with the source and the preview in step', async () => {
    const page = browser.page();
    const account = await signIn(page);
    const kit = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Spring', colours: ['#e11d48', '#0f766e'] } });
    expect(kit.status).toBe(201);
    const created = await api('/v1/templates', {
      method: 'POST',
      key: account.apiKey,
      body: {
        name: 'Sale card',
        input_mode: 'blank',
        source: canvasSource(kit.body.id),
        sizes: [{ id: 'square', name: 'Square', width: 400, height: 400, status: 'edited', source: canvasSource(kit.body.id, 400, 400) }],
      },
    });
    expect(created.status).toBe(201);
    await page.goto(`/dashboard/templates/${created.body.id}`);
    await (await hydrated(page.getByLabel('Data as JSON'))).fill('{"headline": "Spring sale starts Monday"}');
    await expect.poll(() => preview(page).locator('h1').textContent(), wait).toBe('Hello canvas');

    await (await hydrated(page.getByRole('group', { name: 'Source view' }).getByRole('button', { name: 'Visual' }))).click();
    await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');
    const overlay = page.getByTestId('visual-overlay');
    const badge = overlay.locator('[title="div.badge"]');
    await badge.waitFor(wait);

    // drag the badge: its left and top change in the source, the preview and the visual canvas
    const box = (await badge.boundingBox())!;
    await dragBy(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, 120, 70);
    await expect.poll(() => inlineStyle(preview(page), '.badge', 'left'), wait).not.toBe('40px');
    const left = await inlineStyle(preview(page), '.badge', 'left');
    const top = await inlineStyle(preview(page), '.badge', 'top');
    expect(Number.parseInt(left)).toBeGreaterThan(100);
    expect(Number.parseInt(top)).toBeGreaterThan(80);
    await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');
    expect(await inlineStyle(visualCanvas(page), '.badge', 'left')).toBe(left);
    // switching to the code and back keeps the edit
    const moved = await codeText(page);
    expect(moved).toContain(`style="position: absolute; left: ${left}; top: ${top}; width: 200px; height: 80px; background-color: #1d4ed8"`);
    expect(await inlineStyle(visualCanvas(page), '.badge', 'left')).toBe(left);

    // resize it from its bottom-right handle: width and height change, its place stays (it now
    // lies partly under the heading: picked by its uncovered top)
    await badge.click({ position: { x: 8, y: 4 } });
    const handle = page.locator('.moveable-control.moveable-se');
    await handle.waitFor(wait);
    const corner = (await handle.boundingBox())!;
    await dragBy(page, { x: corner.x + corner.width / 2, y: corner.y + corner.height / 2 }, 60, 30);
    await expect.poll(() => inlineStyle(preview(page), '.badge', 'width'), wait).not.toBe('200px');
    expect(Number.parseInt(await inlineStyle(preview(page), '.badge', 'width'))).toBeGreaterThan(240);
    expect(Number.parseInt(await inlineStyle(preview(page), '.badge', 'height'))).toBeGreaterThan(100);
    expect(await inlineStyle(preview(page), '.badge', 'left')).toBe(left);
    await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');

    // bind the heading to a data field: the sample value shows, the source holds the expression
    await page.getByRole('region', { name: 'Visual editor' }).getByRole('button', { name: /Hello canvas/ }).click();
    await page.getByLabel('Text from data field').selectOption('headline');
    await page.getByRole('button', { name: 'Bind field' }).click();
    await expect.poll(() => preview(page).locator('h1').textContent(), wait).toBe('Spring sale starts Monday');
    await expect.poll(() => visualCanvas(page).locator('h1').textContent(), wait).toBe('Spring sale starts Monday');
    await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');
    expect(await codeText(page)).toContain('font-size: 40px">{{ headline }}</h1>');

    // a colour from the brand kit
    await page.getByRole('button', { name: 'Text colour: #e11d48' }).click();
    await expect.poll(() => preview(page).locator('h1').evaluate((element) => getComputedStyle(element).color), wait).toBe('rgb(225, 29, 72)');
    await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');
    await expectAccessible(page);
    await screenshot(page, 'visual-editor');

    // undo the colour and the binding; redo the binding
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => preview(page).locator('h1').evaluate((element) => getComputedStyle(element).color), wait).toBe('rgb(0, 0, 0)');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => preview(page).locator('h1').textContent(), wait).toBe('Hello canvas');
    await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');
    const undone = await codeText(page);
    expect(undone).toContain('font-size: 40px">Hello canvas</h1>');
    expect(undone).not.toContain('{{ headline }}');
    expect(undone).toContain(`left: ${left}; top: ${top}`);
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => preview(page).locator('h1').textContent(), wait).toBe('Spring sale starts Monday');

    // undo everything: the source is the one the template was saved with, so nothing is unsaved
    for (let step = 0; step < 3; step += 1) {
      await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');
      await page.getByRole('button', { name: 'Undo' }).click();
    }
    await expect.poll(() => inlineStyle(preview(page), '.badge', 'left'), wait).toBe('40px');
    expect(await inlineStyle(preview(page), '.badge', 'width')).toBe('200px');
    expect(await page.getByText('Unsaved changes', { exact: true }).count()).toBe(0);
    expect(await codeText(page)).toBe(canvasSource(kit.body.id));

    // a saved size is edited in its own source: align the badge to its right edge, then undo
    await page.getByLabel('Canvas size', { exact: true }).selectOption('square');
    await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');
    await expect.poll(() => visualCanvas(page).locator('.page').evaluate((element) => element.getBoundingClientRect().width), wait).toBe(400);
    await page.getByRole('region', { name: 'Visual editor' }).getByRole('button', { name: /div\.badge/ }).click();
    await page.getByRole('button', { name: 'Align right' }).click();
    await expect.poll(() => inlineStyle(visualCanvas(page), '.badge', 'left'), wait).toBe('200px');
    await expect.poll(() => page.getByText('Unsaved changes', { exact: true }).count(), wait).toBe(1);
    expect(await inlineStyle(preview(page), '.badge', 'left')).toBe('40px');
    await expect.poll(() => page.getByTestId('visual-status').textContent(), wait).toBe('Up to date');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => inlineStyle(visualCanvas(page), '.badge', 'left'), wait).toBe('40px');
    await expect.poll(() => page.getByText('Unsaved changes', { exact: true }).count(), wait).toBe(0);
  }, 300_000);
});
