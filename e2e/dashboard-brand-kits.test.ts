// The Brand kits pages in a real browser: a kit created with colours picked and typed, a WOFF2
// font whose specimen renders in that font, a logo shown as uploaded, upload refusals with their
// codes, archive and restore, and the plan's count of kits; checked against the API.
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api } from './support/api.ts';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/browser.ts';
import { ttf, woff2 } from './support/fonts.ts';
import { png } from './support/images.ts';

/** axe on the page once its title is in (after a client-side navigation Next sets it a moment later). */
async function accessible(page: Page): Promise<void> {
  await expect.poll(() => page.title()).not.toBe('');
  await expectAccessible(page);
}

describe('brand kits', () => {
  const browser = useBrowser();

  it('creates a kit, uploads a font and a logo with previews, archives and restores it', async () => {
    const page = browser.page();
    const account = await signIn(page, { plan: 'growth' });
    await page.goto('/dashboard/brand-kits');
    await expect.poll(() => page.getByTestId('kit-limit').textContent()).toContain('0 of 5 kits used on the growth plan');
    await page.getByText('No brand kits yet').waitFor();
    await accessible(page);

    await page.getByRole('link', { name: 'New brand kit' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Harbour Coffee');
    // the picker and the hex text stay in step: pick the first, type the second
    await page.getByLabel('Colour 1 picker').fill('#123abc');
    await expect.poll(() => page.getByLabel('Colour 1', { exact: true }).inputValue()).toBe('#123abc');
    await page.getByRole('button', { name: 'Add colour' }).click();
    await page.getByLabel('Colour 2', { exact: true }).fill('#F0A030');
    await expect.poll(() => page.getByLabel('Colour 2 picker').inputValue()).toBe('#f0a030');
    await page.getByLabel('Tone guidance').fill('Warm and plain.\nNo jargon.');
    await accessible(page);
    await page.getByRole('button', { name: 'Create brand kit' }).click();
    await page.getByText('Brand kit created.').waitFor();
    const kitId = new URL(page.url()).pathname.split('/').pop()!;
    expect(kitId).toMatch(/^kit_[0-9a-f]{32}$/);
    const created = await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey });
    expect(created.body).toMatchObject({ name: 'Harbour Coffee', colours: ['#123abc', '#f0a030'], tone_guidance: 'Warm and plain.\nNo jargon.' });

    // a font: the specimen is drawn in the uploaded font, loaded by the browser from the kit
    await page.getByLabel('Logo or font file').setInputFiles({ name: 'DejaVuSerif.woff2', mimeType: 'font/woff2', buffer: await woff2('DejaVuSerif.ttf') });
    await page.getByRole('button', { name: 'Upload' }).click();
    const specimen = page.getByTestId('font-specimen');
    await specimen.waitFor();
    expect(await page.getByTestId('font-asset').textContent()).toContain('DejaVu Serif');
    const family = (await specimen.getAttribute('data-font-family'))!;
    const loaded = await page.evaluate(async (name) => {
      const faces = await document.fonts.load(`24px "${name}"`);
      return faces.map((face) => face.status);
    }, family);
    expect(loaded).toEqual(['loaded']);
    // the specimen's family is available to the page, so it is drawn in it rather than the fallback
    expect(await page.evaluate((name) => document.fonts.check(`24px "${name}"`), family)).toBe(true);

    // a logo: the image shown is the upload, at its size
    await page.getByLabel('Logo or font file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await png(320, 120, '#123abc') });
    await page.getByRole('button', { name: 'Upload' }).click();
    const logo = page.getByRole('img', { name: 'Logo 1 of Harbour Coffee' });
    await logo.waitFor();
    await expect.poll(() => logo.evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0))).toBe(320);
    const detail = await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey });
    expect(detail.body.assets.map((asset: { kind: string }) => asset.kind)).toEqual(['font', 'logo']);
    await accessible(page);
    await screenshot(page, 'brand-kit');

    // refusals carry the spec's codes; nothing is stored
    await page.getByLabel('Logo or font file').setInputFiles({ name: 'DejaVuSans.woff2', mimeType: 'font/woff2', buffer: await ttf('DejaVuSans.ttf') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('brand_asset_type_unsupported');
    expect((await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey })).body.assets).toHaveLength(2);

    // archive (confirmed), then restore
    await page.getByRole('button', { name: 'Archive kit' }).click();
    await page.getByRole('dialog', { name: 'Archive Harbour Coffee?' }).getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Restore kit' }).waitFor();
    expect((await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey })).body.archived_at).not.toBeNull();
    // the previews stay on an archived kit; uploads do not
    expect(await page.getByTestId('font-specimen').count()).toBe(1);
    expect(await page.getByLabel('Logo or font file').count()).toBe(0);

    await page.goto('/dashboard/brand-kits');
    expect(await page.getByTestId('brand-kit').count()).toBe(0);
    await page.getByRole('link', { name: 'Archived' }).click();
    await expect.poll(() => page.getByTestId('brand-kit').textContent()).toContain('archived');
    // archived kits still count towards the plan
    expect(await page.getByTestId('kit-limit').textContent()).toContain('1 of 5');
    await accessible(page);
    await screenshot(page, 'brand-kits');

    await page.getByRole('link', { name: 'Harbour Coffee' }).click();
    await page.getByRole('button', { name: 'Restore kit' }).click();
    await page.getByRole('button', { name: 'Save changes' }).waitFor();
    expect((await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey })).body.archived_at).toBeNull();

    // changes after restore are saved
    await page.getByLabel('Name', { exact: true }).fill('Harbour Coffee Co');
    await page.getByRole('button', { name: 'Remove colour 2' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await api(`/v1/brand-kits/${kitId}`, { key: account.apiKey })).body).toMatchObject({ name: 'Harbour Coffee Co', colours: ['#123abc'] });

    // on a phone-sized screen the page fits its width (nothing to scroll sideways)
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId('font-specimen').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'brand-kit-narrow');
  }, 180_000); // a font's check and a logo's previews each run in the parsers' sandbox: slow on a busy machine

  it('shows the plan count and offers no new kit when the plan holds no more; bad colours answer with their code', async () => {
    const page = browser.page();
    await signIn(page, { plan: 'free', credits: 0 });
    await page.goto('/dashboard/brand-kits/new');
    await page.getByLabel('Name', { exact: true }).fill('Only kit');
    await page.getByLabel('Colour 1', { exact: true }).fill('#12345');
    // the browser's own pattern check stops a malformed colour first; past it, the service's code shows
    await page.getByLabel('Colour 1', { exact: true }).evaluate((input: HTMLInputElement) => input.removeAttribute('pattern'));
    await page.getByRole('button', { name: 'Create brand kit' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('brand_kit_colours_invalid');
    await page.getByLabel('Colour 1', { exact: true }).fill('#abcdef');
    await page.getByRole('button', { name: 'Create brand kit' }).click();
    await page.getByText('Brand kit created.').waitFor();

    await page.goto('/dashboard/brand-kits');
    await expect.poll(() => page.getByTestId('kit-limit').textContent()).toContain('1 of 1 kits used on the free plan');
    expect(await page.getByRole('link', { name: 'New brand kit' }).count()).toBe(0);
    // asked for directly, the form is not offered: the plan's limit with its code
    await page.goto('/dashboard/brand-kits/new');
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('brand_kit_limit');
    expect(await page.getByRole('button', { name: 'Create brand kit' }).count()).toBe(0);
    await accessible(page);
  });
});
