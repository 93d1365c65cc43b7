// A real browser for the dashboard tests: Debian's Chromium driven by Playwright as a library
// (never a downloaded browser), one browser per test file, a fresh context and page per test.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { createServiceContext, createSignInLink, loadConfig, type ServiceContext, silentLogger } from '@svc/core';
import type { CreateAccountOptions } from '../../packages/core/src/accounts/create-account.ts';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { baseUrl, newAccount, serviceContext, type TestAccount } from './api.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Screenshots of the dashboard's pages, kept after the run (gitignored). */
export const screenshotDir = join(root, '.setup', 'screenshots');

/** The installed Chromium: the full browser when present (closer to what users run), else the headless shell. */
export function chromiumPath(): string {
  const candidates = [process.env.SVC_TEST_CHROMIUM, '/usr/lib/chromium/chromium', '/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];
  const found = candidates.find((path): path is string => !!path && existsSync(path));
  if (!found) throw new Error('no Chromium found: install chromium-headless-shell (apt)');
  return found;
}

export interface BrowserFixture {
  /** The test's own page (a fresh context per test: no cookies from the test before). */
  page(): Page;
  context(): BrowserContext;
  /** Another fresh context in the same browser (a second user, or a second device). */
  newContext(): Promise<BrowserContext>;
}

export interface UseBrowserOptions {
  viewport?: { width: number; height: number };
  /** The browser's locale (numbers and dates on the dashboard follow it); en-US unless told. */
  locale?: string;
  /** The service the pages come from; the global setup's web process unless told (read when each test starts). */
  baseUrl?: () => string;
}

/** Call at the top of a describe block (or file): launches Chromium for the file and gives each test a fresh page. */
export function useBrowser(options: UseBrowserOptions = {}): BrowserFixture {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const extra: BrowserContext[] = [];
  const contextOptions = () => ({
    baseURL: (options.baseUrl ?? baseUrl)(),
    viewport: options.viewport ?? { width: 1280, height: 900 },
    locale: options.locale ?? 'en-US',
    timezoneId: 'UTC',
  });
  beforeAll(async () => {
    process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  });
  // what the pages' security policy refused, and HTML pages served without one: each fails the test
  const policyProblems: string[] = [];
  beforeEach(async () => {
    context = await browser!.newContext(contextOptions());
    context.setDefaultTimeout(20_000);
    await watchPolicy(context, policyProblems);
    page = await context.newPage();
  });
  afterEach(async () => {
    await Promise.all([context, ...extra.splice(0)].map((each) => each?.close()));
    context = page = undefined;
    expect(policyProblems.splice(0), 'Content-Security-Policy problems on the pages this test visited').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    page: () => page ?? fail('no page: call page() inside a test'),
    context: () => context ?? fail('no context: call context() inside a test'),
    newContext: async () => {
      const made = await browser!.newContext(contextOptions());
      await watchPolicy(made, policyProblems);
      extra.push(made);
      return made;
    },
  };
}

/**
 * Records in `problems` every Content-Security-Policy violation a page of the context reports
 * (the securitypolicyviolation event, in each top-level document) and every HTML page that
 * arrives without a policy. Previews' own documents, which refuse network loads on purpose,
 * report in their frames and are not counted.
 */
async function watchPolicy(context: BrowserContext, problems: string[]): Promise<void> {
  await context.exposeBinding('__svcPolicyViolation', ({ frame }, text: string) => {
    problems.push(`${frame.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    if (window.top !== window) return;
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __svcPolicyViolation: (text: string) => void }).__svcPolicyViolation;
      void report(`${event.effectiveDirective} refused ${event.blockedURI || 'inline code'} (${event.sourceFile || 'page'}:${event.lineNumber})`);
    });
  });
  context.on('response', (response) => {
    const request = response.request();
    if (!request.isNavigationRequest() || request.frame().parentFrame() !== null) return;
    if (!(response.headers()['content-type'] ?? '').includes('text/html')) return;
    if (!response.headers()['content-security-policy']) problems.push(`${response.url()}: an HTML page without a Content-Security-Policy`);
  });
}

function fail(message: string): never {
  throw new Error(message);
}

export type SignedInAccount = TestAccount;

/** Where signIn makes the account and its link: the global setup's service unless told. */
export interface SignInService {
  newAccount(options: Partial<CreateAccountOptions>): Promise<TestAccount>;
  ctx: ServiceContext;
}

/** A sign-in service over a service of a test's own (a web and worker started by the test). */
export function signInServiceOf(env: { newAccount: SignInService['newAccount']; baseUrl: string; database: { db: ServiceContext['db'] } }): SignInService {
  return {
    newAccount: (options) => env.newAccount(options),
    ctx: createServiceContext({ db: env.database.db, logger: silentLogger, config: loadConfig({ SVC_PUBLIC_URL: env.baseUrl }) }),
  };
}

export interface SignInOptions {
  plan?: 'scale' | 'growth' | 'starter' | 'pack' | 'free';
  credits?: number;
  service?: SignInService;
}

/**
 * A new account (scale plan with 100 credits unless told otherwise), signed in on `page` by
 * opening a real one-use sign-in link, as a user opens the one in their email, and pressing
 * its page's Sign in button. Lands on the dashboard's overview.
 */
export async function signIn(page: Page, options: SignInOptions = {}): Promise<SignedInAccount> {
  const service = options.service ?? { newAccount, ctx: serviceContext() };
  const account = await service.newAccount({ plan: options.plan ?? 'scale', credits: options.credits ?? 100 });
  const link = await createSignInLink(service.ctx, { accountId: account.accountId });
  await page.goto(new URL(link.url).pathname);
  // the link's page names the account; its button signs in
  await page.getByRole('button', { name: 'Sign in' }).click();
  // as goto did for the link before: the dashboard has loaded, not only been asked for
  await page.waitForURL((url) => url.pathname === '/dashboard', { waitUntil: 'load' });
  return account;
}

/** Saves a full-page PNG under .setup/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core on the page as it is now; fails on any serious or critical violation, naming them. */
export async function expectAccessible(page: Page): Promise<void> {
  // Next streams a dynamic page's metadata after its first bytes: check the page once it has its title
  await page.waitForFunction(() => document.title !== '', undefined, { timeout: 60_000 });
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((node) => ({ target: node.target })) }));
  });
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const report = serious.map((violation) => `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
  expect(report, `axe violations on ${page.url()}`).toEqual([]);
}
