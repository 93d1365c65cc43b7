// A service started without SVC_SMTP_URL cannot deliver email: the routes that mail a link
// answer 503 auth_unavailable over HTTP, and reserve nothing (no link is created); the sign-in
// and account pages say so in words and give the operator's sign-in link command instead.
import { type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createServiceContext, createSignInLink, loadConfig, type ServiceContext, silentLogger } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAt, expectError } from './support/api.ts';
import { expectAccessible, screenshot, signIn, type SignInService, useBrowser } from './support/browser.ts';
import { freePort, startProcess, stopProcess, waitFor } from './support/global-setup.ts';
import { openLink, sessionCookieFrom } from './support/sessions.ts';

let database: TestDatabase;
let ctx: ServiceContext;
let web: ChildProcess | undefined;
let base: string;
let service: SignInService;

beforeAll(async () => {
  database = await createTestDatabase(inject('dbServerUrl'));
  ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig() });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-no-email-'));
  // an empty value is unset: email delivery is not configured
  web = startProcess('apps/web/src/server.ts', { DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_SMTP_URL: '' });
  await waitFor(`${base}/v1/openapi.json`, web);
  service = { ctx, newAccount: (options) => createAccount(ctx, { plan: 'scale', credits: 100, ...options }) };
});

afterAll(async () => {
  if (web) await stopProcess(web);
  await database?.drop();
});

describe('email delivery not configured', () => {
  it('answers 503 auth_unavailable to email sign-in and to adding an email identity, and creates no link', async () => {
    const { accountId } = await createAccount(ctx, { plan: 'free' });
    const opened = await openLink(new URL((await createSignInLink(ctx, { accountId })).url).pathname, undefined, { base });
    expect(opened.status).toBe(303);
    const cookie = sessionCookieFrom(opened);
    const me = await apiAt(base, '/v1/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    const links = await ctx.db.authLink.count();

    const identity = await apiAt(base, '/v1/me/identities/email', {
      method: 'POST',
      body: { email: 'owner@example.com' },
      headers: { cookie, 'x-csrf-token': me.body.csrf_token },
    });
    expectError(identity, 503, 'auth_unavailable');
    expectError(await apiAt(base, '/v1/auth/email/sign-in', { method: 'POST', body: { email: 'someone@example.com' } }), 503, 'auth_unavailable');
    expect(await ctx.db.authLink.count()).toBe(links);
  });
});

describe('the pages without email delivery', () => {
  const browser = useBrowser({ baseUrl: () => base });
  const command = /^npm run svc -- account sign-in-link (\S+)$/;

  it('the sign-in page says email is not set up, offers no email form and shows the sign-in link command', async () => {
    const page = browser.page();
    await page.goto('/sign-in');
    const notice = page.getByTestId('email-not-set-up');
    await expect.poll(() => notice.getByRole('heading').textContent()).toBe('Email is not set up on this installation');
    expect(await page.getByLabel('Email address').count()).toBe(0);
    expect((await notice.locator('code').textContent())?.match(command)?.[1]).toBe('ID');
    expect(await page.locator('body').innerText()).not.toMatch(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[45]\d\d\b/);
    await expectAccessible(page);
    await screenshot(page, 'sign-in-without-email');
  });

  it("the account page says email is not set up and gives the command with this account's id", async () => {
    const page = browser.page();
    const account = await signIn(page, { service });
    await page.goto('/dashboard/account');
    const notice = page.getByTestId('email-not-set-up');
    await expect.poll(() => notice.textContent()).toContain('Email is not set up on this installation');
    expect((await notice.locator('code').textContent())?.match(command)?.[1]).toBe(account.accountId);
    expect(await page.getByRole('button', { name: 'Send confirmation link' }).count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toMatch(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[45]\d\d\b/);
    await expectAccessible(page);
  });
});
