// The dashboard's Sign in, Overview, Developers and Account pages in a real browser: what a
// user sees and does, checked against the API and the database.
import { createSignInLink } from '@svc/core';
import { newId } from '../packages/core/src/shared/ids.ts';
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { api, baseUrl, newAccount, serviceContext, serviceDb } from './support/api.ts';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/browser.ts';
import { nextMailTo } from './support/smtp.ts';

const mailDir = () => inject('mailDir');
const linkIn = (text: string) => text.match(/https?:\/\/\S+/)?.[0] ?? '';

describe('sign in', () => {
  const browser = useBrowser();

  it('asks for a link by email, and the link brings the browser back to the page it asked for', async () => {
    const page = browser.page();
    // every test's link requests come from 127.0.0.1: start from a full per-client bucket
    await serviceDb().$executeRaw`DELETE FROM rate_limit_buckets WHERE key LIKE 'email_sign_in_client:%'`;
    await page.goto('/dashboard/developers');
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    const email = `dash-${randomUUID()}@example.com`;
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Check your email' }).textContent()).toContain(email);

    const mail = await nextMailTo(mailDir(), email);
    await page.goto(new URL(linkIn(mail.text)).pathname);
    // the link's page names the address the new account gets; its button signs in
    expect(await page.getByText(email).count()).toBe(1);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/developers');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Developers');
    // the new account is the address's own: the header names it
    expect(await page.getByTestId('account-label').textContent()).toBe(email);
  });

  it('a page of another site cannot sign the browser into an account it holds a link for (login CSRF)', async () => {
    const page = browser.page();
    // the attacker's own account and link; its page's form token, fetched by the attacker
    const attacker = await newAccount();
    const link = new URL((await createSignInLink(serviceContext(), { accountId: attacker.accountId })).url).pathname;
    const token = /name="form_token" value="([^"]+)"/.exec(await (await fetch(`${baseUrl()}${link}`)).text())?.[1] ?? '';
    const form = `<form method="post" action="${baseUrl()}${link}"><input type="hidden" name="form_token" value="${token}"></form>`;
    await page.route('http://attacker.test/', (route) =>
      route.fulfill({
        contentType: 'text/html',
        headers: { 'content-security-policy': "script-src 'unsafe-inline'" },
        body: `<!doctype html><title>Prize</title>${form}<script>document.forms[0].submit()</script>`,
      }),
    );
    await page.goto('http://attacker.test/');
    await page.waitForURL((url) => url.pathname === link);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign-in refused');
    expect((await browser.context().cookies()).find((cookie) => cookie.name === '__Host-svc_session')).toBeUndefined();
    expect(await serviceDb().session.count({ where: { accountId: attacker.accountId } })).toBe(0);
    // the navigation alone (a top-level GET) shows the page and signs nobody in either
    await page.goto(link);
    expect(await page.getByText(attacker.accountId).count()).toBe(1);
    expect(await serviceDb().session.count({ where: { accountId: attacker.accountId } })).toBe(0);
  });

  it('refuses an address that is not one, saying so', async () => {
    const page = browser.page();
    await page.goto('/sign-in');
    await page.getByLabel('Email address').fill('a@b');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'not valid' }).textContent()).toContain('invalid_email');
  });
});

describe('overview', () => {
  const browser = useBrowser({ locale: 'de-DE' });

  it('shows balances in the browser locale, the 30-day chart and recent failures with their codes', async () => {
    const page = browser.page();
    const account = await signIn(page, { plan: 'scale', credits: 12345 });
    const id = newId('pdf_');
    await serviceDb().renderJob.create({
      data: {
        id,
        accountId: account.accountId,
        kind: 'pdf',
        status: 'failed',
        credit: 'released',
        filename: 'invoice-42',
        options: {},
        errorCode: 'render_timeout',
        errorCategory: 'timeout',
        finishedAt: new Date(),
      },
    });
    await page.reload();
    // German groups thousands with a dot
    await expect.poll(() => page.getByTestId('balance-trial').textContent()).toBe('12.345');
    const chart = page.getByTestId('render-chart');
    expect(await chart.getAttribute('aria-label')).toBe('Renders per day over the last 30 days: 1 finished, 1 failed.');
    const failures = page.getByRole('table', { name: 'Recent failed renders' });
    expect(await failures.textContent()).toContain(id);
    expect(await failures.textContent()).toContain('render_timeout');
    await expectAccessible(page);
    await screenshot(page, 'overview');
  });

  it('says so when there is nothing yet', async () => {
    const page = browser.page();
    await signIn(page, { plan: 'free', credits: 0 });
    await expect.poll(() => page.getByText('No failed renders').count()).toBe(1);
    expect(await page.getByText('Your plan has no overage').count()).toBe(1);
  });
});

describe('developers', () => {
  const browser = useBrowser();

  it('creates a key whose secret is shown once and works against the API, then renames, caps and revokes it', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await page.goto('/dashboard/developers');
    await page.getByLabel('Name of the new key').fill('dashboard key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret-value').textContent({ timeout: 60_000 })) ?? '';
    expect(secret).toMatch(/^svc_sk_v1_[0-9a-f]{64}$/);

    const me = await api('/v1/me', { key: secret });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(account.accountId);

    // while the page is open the quick start uses the new key whole (dashboard-first-steps runs it)
    await expect.poll(() => page.getByTestId('api-key').filter({ hasText: 'dashboard key' }).count()).toBe(1);
    expect(await page.getByTestId('quick-start').textContent()).toContain(`Bearer ${secret}`);
    await expectAccessible(page);
    await screenshot(page, 'developers');

    // after a reload the secret is gone for good
    await page.reload();
    expect(await page.getByTestId('secret-value').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    const keyRow = page.getByTestId('api-key').filter({ hasText: 'dashboard key' });
    await keyRow.getByLabel('Name').fill('renamed key');
    await keyRow.getByLabel('Monthly overage cap').fill('250');
    await keyRow.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('api-key').filter({ hasText: 'renamed key' }).count()).toBe(1);
    const listed = await api('/v1/keys', { key: secret });
    expect(listed.body.data.find((key: { name: string }) => key.name === 'renamed key')).toMatchObject({ monthly_overage_cap: 250 });

    const renamed = page.getByTestId('api-key').filter({ hasText: 'renamed key' });
    await renamed.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke renamed key?' });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(async () => (await api('/v1/me', { key: secret })).status).toBe(401);
    await expect.poll(() => page.getByTestId('api-key').filter({ hasText: 'renamed key' }).textContent()).toContain('revoked');
  });

  it('shows a bad name and a bad cap next to the form, and changes nothing', async () => {
    const page = browser.page();
    await signIn(page);
    await page.goto('/dashboard/developers');
    const keyRow = page.getByTestId('api-key').first();
    const before = await keyRow.getByLabel('Name').inputValue();
    // past the browser's own check (min=1), as a crafted request would be
    await keyRow.locator('form').first().evaluate((form) => ((form as HTMLFormElement).noValidate = true));
    await keyRow.getByLabel('Monthly overage cap').fill('0');
    await keyRow.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => keyRow.getByRole('alert').textContent()).toContain('invalid_request');
    expect(await keyRow.getByRole('alert').textContent()).toContain('monthly_overage_cap');
    await page.reload();
    expect(await page.getByTestId('api-key').first().getByLabel('Name').inputValue()).toBe(before);
  });
});

describe('account', () => {
  const browser = useBrowser();

  it('adds an email address, confirmed by the emailed link in the same browser', async () => {
    const page = browser.page();
    const account = await signIn(page, { plan: 'free', credits: 0 });
    await page.goto('/dashboard/account');
    await expectAccessible(page);
    await screenshot(page, 'account');
    // the key its files' data hashes are made with, as GET /v1/me gives it
    const me = await api('/v1/me', { key: account.apiKey });
    expect(me.body.provenance_key).toMatch(/^[0-9a-f]{64}$/);
    expect(await page.getByTestId('provenance-key').textContent()).toBe(me.body.provenance_key);
    const email = `identity-${randomUUID()}@example.com`;
    await page.getByRole('textbox', { name: 'Email address' }).fill(email);
    await page.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Check your inbox' }).count()).toBe(1);

    const mail = await nextMailTo(mailDir(), email);
    const link = new URL(linkIn(mail.text));
    await page.goto(`${link.pathname}${link.hash}`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/account');
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe(email);
    expect(await page.getByText('Your email address is confirmed.').count()).toBe(1);
  });
});

describe('session expiry and CSRF', () => {
  const browser = useBrowser();

  it('refuses a write whose CSRF token is not the session’s, saying to reload; nothing is created', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await page.goto('/dashboard/developers');
    await page.getByLabel('Name of the new key').fill('forged');
    await page.locator('form:has(#new-key-name) input[name="_csrf"]').evaluate((input) => {
      (input as HTMLInputElement).value = 'svc_csrf_forged';
    });
    await page.getByRole('button', { name: 'Create key' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'out of date' });
    await expect.poll(() => alert.textContent()).toContain('csrf_rejected');
    expect(await alert.getByRole('button', { name: 'Reload the page' }).count()).toBe(1);
    expect(await serviceDb().apiKey.count({ where: { accountId: account.accountId, name: 'forged' } })).toBe(0);
  });

  it('after the session ends elsewhere, a write says the session ended and links to sign in; pages go to sign in', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await page.goto('/dashboard/developers');
    await serviceDb().session.updateMany({ where: { accountId: account.accountId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await page.getByLabel('Name of the new key').fill('too late');
    await page.getByRole('button', { name: 'Create key' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'session ended' });
    await expect.poll(() => alert.textContent()).toContain('signed_out');
    expect(await serviceDb().apiKey.count({ where: { accountId: account.accountId, name: 'too late' } })).toBe(0);

    await alert.getByRole('link', { name: 'Sign in again' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/developers');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'session ended' }).count()).toBe(1);
    await expectAccessible(page);
  });

  it('after signing out in another tab (the cookie gone), a write in this one says the session ended', async () => {
    const page = browser.page();
    const account = await signIn(page);
    await page.goto('/dashboard/developers');
    await browser.context().clearCookies();
    await page.getByLabel('Name of the new key').fill('after sign-out');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'session ended' }).textContent()).toContain('signed_out');
    expect(await serviceDb().apiKey.count({ where: { accountId: account.accountId, name: 'after sign-out' } })).toBe(0);
  });
});
