// The dashboard's shell in a real browser: signed-out redirects, sign-in by link, navigation
// by keyboard on wide and narrow screens, sign out.
import { describe, expect, it } from 'vitest';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/browser.ts';

describe('dashboard shell', () => {
  const browser = useBrowser();

  it('sends a signed-out browser to the sign-in page and back to the page it asked for', async () => {
    const page = browser.page();
    await page.goto('/dashboard/developers?tab=keys');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/sign-in');
    expect(url.searchParams.get('next')).toBe('/dashboard/developers?tab=keys');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    await expectAccessible(page);
    await screenshot(page, 'sign-in');
  });

  it('signs in with a link and moves between pages with the keyboard', async () => {
    const page = browser.page();
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    const names = await nav.getByRole('link').allTextContents();
    expect(names).toEqual(['Overview', 'Templates', 'Brand kits', 'AI', 'Renders', 'Developers', 'Account']);
    await expect.poll(() => nav.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');

    // the skip link comes first, then the header, then the navigation
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const account = nav.getByRole('link', { name: 'Account' });
    await account.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/account');
    await expect.poll(() => account.getAttribute('aria-current')).toBe('page');
    await expectAccessible(page);
  });

  it('on a narrow screen the menu opens from the keyboard', async () => {
    const page = browser.page();
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    const menu = page.getByText('Menu', { exact: true });
    await menu.focus();
    await page.keyboard.press('Enter');
    const links = page.getByRole('navigation', { name: 'Dashboard' }).locator('details').getByRole('link');
    await expect.poll(() => links.count()).toBe(7);
    expect(await links.nth(5).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'overview-narrow');
  });

  it('signs out: the session ends and dashboard pages ask to sign in again', async () => {
    const page = browser.page();
    await signIn(page);
    const cookieBefore = (await browser.context().cookies()).find((cookie) => cookie.name === '__Host-svc_session');
    expect(cookieBefore).toBeDefined();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sign-in');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'signed out' }).textContent()).toContain('You are signed out.');

    // the old cookie, brought back, signs in nowhere: "your session ended"
    await browser.context().addCookies([{ ...cookieBefore! }]);
    await page.goto('/dashboard');
    expect(new URL(page.url()).searchParams.get('reason')).toBe('session_ended');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'session' }).textContent()).toContain('Your session ended');
  });
});
