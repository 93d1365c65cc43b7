// Every page of the site and the dashboard answers with the security headers of a hosted web
// app: a Content-Security-Policy whose scripts need this response's nonce (no 'unsafe-inline'),
// that no site may frame; Referrer-Policy and Permissions-Policy; and HSTS over https only.
import { type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl, newAccount } from './support/api.ts';
import { useBrowser } from './support/browser.ts';
import { freePort, startProcess, stopProcess, waitFor } from './support/global-setup.ts';
import { signIn, signInPath } from './support/sessions.ts';

const sitePages = ['/', '/status', '/docs', '/testimonials', '/auth/confirm-email', '/sign-in'];
const dashboardPages = [
  '/dashboard',
  '/dashboard/account',
  '/dashboard/ai',
  '/dashboard/ai/chat',
  '/dashboard/brand-kits',
  '/dashboard/brand-kits/new',
  '/dashboard/developers',
  '/dashboard/renders',
  '/dashboard/renders/groups',
  '/dashboard/templates',
  '/dashboard/templates/gallery',
];

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...values]) => [name!, values]));
}

/** Fetches a page and checks its headers; returns the policy's nonce. */
async function expectPageHeaders(path: string, cookie?: string, status = 200): Promise<string> {
  const response = await fetch(`${baseUrl()}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const where = `${path} (${response.status})`;
  expect(response.status, where).toBe(status);
  expect(response.headers.get('content-type'), where).toContain('text/html');
  const policy = directives(response.headers.get('content-security-policy') ?? '');
  const scripts = policy.get('script-src') ?? [];
  const nonce = scripts.find((value) => value.startsWith("'nonce-"))?.slice(7, -1);
  expect(nonce, where).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(scripts, where).not.toContain("'unsafe-inline'");
  expect(scripts, where).toContain("'strict-dynamic'");
  expect(policy.get('default-src'), where).toEqual(["'self'"]);
  expect(policy.get('frame-ancestors'), where).toEqual(["'none'"]);
  expect(policy.get('object-src'), where).toEqual(["'none'"]);
  expect(policy.get('base-uri'), where).toEqual(["'self'"]);
  expect(policy.get('form-action'), where).toEqual(["'self'"]);
  expect(response.headers.get('referrer-policy'), where).toMatch(/^(same-origin|no-referrer)$/);
  expect(response.headers.get('permissions-policy'), where).toContain('camera=()');
  expect(response.headers.get('x-content-type-options'), where).toBe('nosniff');
  // the service under test is plain http: no HSTS (a browser would keep it for the host)
  expect(response.headers.get('strict-transport-security'), where).toBeNull();
  // every script of the page carries the nonce; none could run without it
  const html = await response.text();
  const tags = html.match(/<script\b[^>]*>/g) ?? [];
  for (const tag of tags) expect(tag, where).toContain(`nonce="${nonce}"`);
  return nonce!;
}

describe('page security headers', () => {
  it('every site page, and a sign-in link\'s page, carries them with a fresh nonce each time', async () => {
    const nonces = new Set<string>();
    for (const path of sitePages) nonces.add(await expectPageHeaders(path));
    nonces.add(await expectPageHeaders(sitePages[0]!));
    const account = await newAccount();
    nonces.add(await expectPageHeaders(await signInPath(account.accountId)));
    expect(nonces.size).toBe(sitePages.length + 2);
    // an address that names no page: its page too
    nonces.add(await expectPageHeaders('/no-such-page', undefined, 404));
    expect(nonces.size).toBe(sitePages.length + 3);
  });

  it('every dashboard page carries them; only the template editor lets its schema form compile validators', async () => {
    const account = await newAccount();
    const session = await signIn(account.accountId);
    for (const path of dashboardPages) {
      await expectPageHeaders(path, session.cookie);
      const policy = (await fetch(`${baseUrl()}${path}`, { headers: { cookie: session.cookie } })).headers.get('content-security-policy');
      expect(policy, path).not.toContain('unsafe-eval');
    }
    const template = await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<h1>{{ name }}</h1>', name: 'Headers' } });
    expect(template.status).toBe(201);
    await expectPageHeaders(`/dashboard/templates/${template.body.id}`, session.cookie);
    const editor = await fetch(`${baseUrl()}/dashboard/templates/${template.body.id}`, { headers: { cookie: session.cookie } });
    expect(directives(editor.headers.get('content-security-policy') ?? '').get('script-src')).toContain("'unsafe-eval'");
  });

  it('leaves the API alone: /v1 answers JSON without a page policy', async () => {
    const openapi = await fetch(`${baseUrl()}/v1/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(openapi.headers.get('content-security-policy')).toBeNull();
  });
});

describe('site pages in a browser', () => {
  // the fixture fails a test on any policy violation, and on an HTML page without a policy
  const browser = useBrowser();

  it('run under the policy: the pages hydrate and the testimonial widget solves its challenge in its worker', async () => {
    const page = browser.page();
    for (const path of ['/', '/sign-in', '/auth/confirm-email', '/no-such-page']) {
      await page.goto(path, { waitUntil: 'networkidle' });
      await page.waitForFunction(() => document.title !== '');
    }
    // hydrated: the sign-in form answers in place (a client component)
    await page.goto('/sign-in');
    await page.getByLabel('Email address').fill('a@b');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'not valid' }).count()).toBe(1);
    await page.goto('/testimonials', { waitUntil: 'networkidle' });
    // the widget draws its tick over its own checkbox
    await page.locator('altcha-widget input[type="checkbox"]').click({ force: true });
    await page.waitForFunction(() => ((document.querySelector('input[name="captcha_token"]') as HTMLInputElement | null)?.value ?? '').length > 0, undefined, { timeout: 60_000 });
  }, 120_000);
});

describe('over https', () => {
  let database: TestDatabase;
  let web: ChildProcess | undefined;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase(inject('dbServerUrl'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-headers-'));
    web = startProcess('apps/web/src/server.ts', { DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_PUBLIC_URL: 'https://svc.example' });
    await waitFor(`${base}/v1/openapi.json`, web);
  });

  afterAll(async () => {
    if (web) await stopProcess(web);
    await database?.drop();
  });

  it('pages tell browsers to keep to https (HSTS) when SVC_PUBLIC_URL is https', async () => {
    for (const path of ['/', '/sign-in']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('strict-transport-security')).toMatch(/^max-age=\d{8,}/);
      expect(response.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    }
  });
});
