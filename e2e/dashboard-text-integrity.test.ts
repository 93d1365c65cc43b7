// Dashboard actions refuse text the service cannot store whole, as the API does: a brand kit
// whose tone guidance holds U+0000 (typed into the form in a real browser) is refused with
// invalid_request and not created.
import { describe, expect, it } from 'vitest';
import { serviceDb } from './support/api.ts';
import { signIn, useBrowser } from './support/browser.ts';

describe('dashboard text integrity', () => {
  const browser = useBrowser();

  it('refuses a brand kit whose tone guidance holds U+0000, creating nothing', async () => {
    const page = browser.page();
    const account = await signIn(page, { plan: 'growth' });
    await page.goto('/dashboard/brand-kits/new');
    await page.getByLabel('Name', { exact: true }).fill('Harbour Coffee');
    // set as a controlled field's value is set by typing, so React keeps it for the action
    await page.getByLabel('Tone guidance').evaluate((area: HTMLTextAreaElement) => {
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
      setter?.call(area, `Warm${String.fromCharCode(0)}plain`);
      area.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.getByRole('button', { name: 'Create brand kit' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 60_000 }).toContain('invalid_request');
    expect(await serviceDb().brandKit.count({ where: { accountId: account.accountId } })).toBe(0);
  }, 180_000);

  it('refuses a sign-in address holding U+0000 as a bad address, not a server error', async () => {
    const page = browser.page();
    await page.goto('/sign-in');
    const field = page.getByLabel('Email address');
    // the browser's own email check would stop the form first: this is what a script could post
    await field.evaluate((input: HTMLInputElement) => {
      input.type = 'text';
      input.form?.setAttribute('novalidate', '');
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      setter?.call(input, `ana${String.fromCharCode(0)}@example.com`);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 60_000 }).toContain('invalid_email');
  }, 180_000);
});
