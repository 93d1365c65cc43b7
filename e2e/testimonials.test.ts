import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { DEFAULT_CHROMIUM_PATH, headlessMode } from '@svc/renderer';
import puppeteer from 'puppeteer-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { api, baseUrl, expectError, serviceDb } from './support/api.ts';
import { svc } from './support/cli.ts';

const origin = () => new URL(baseUrl()).origin;

/** What the widget does: fetch a challenge, solve it, submit the base64 JSON payload. */
async function solvedToken(): Promise<string> {
  const response = await api<Challenge>('/v1/captcha/challenge');
  expect(response.status).toBe(200);
  const challenge = response.body;
  const solution = await solveChallenge({ challenge, deriveKey });
  expect(solution).not.toBeNull();
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const testimonial = (captcha_token: string) => ({
  name: 'Ada Lovelace',
  company: 'Analytical Engines',
  quote: 'The invoices render before I finish my tea.',
  permission: true,
  captcha_token,
});

function submit(body: unknown, headers: Record<string, string> = { origin: origin() }) {
  return api('/v1/testimonials', { method: 'POST', body, headers });
}

describe('POST /v1/testimonials', () => {
  beforeEach(async () => {
    // every test comes from 127.0.0.1: start each with a full per-client bucket
    await serviceDb().$executeRaw`DELETE FROM rate_limit_buckets WHERE key LIKE 'testimonial:%'`;
  });

  it('stores a testimonial for review from the service origin with a solved CAPTCHA, listed by the CLI', async () => {
    const created = await submit(testimonial(await solvedToken()));
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const listed = await svc(['testimonials', 'list', '--json']);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]!);
    expect(printed.data.find((item: { id: string }) => item.id === created.body.id)).toMatchObject({
      name: 'Ada Lovelace',
      company: 'Analytical Engines',
      quote: 'The invoices render before I finish my tea.',
    });
  }, 120_000);

  it('refuses another origin, and a request without one', async () => {
    const token = await solvedToken();
    expectError(await submit(testimonial(token), { origin: 'https://evil.example' }), 403, 'cross_origin_rejected');
    expectError(await submit(testimonial(token), {}), 403, 'cross_origin_rejected');
    // the refused requests did not use the solution up
    expect((await submit(testimonial(token))).status).toBe(201);
  });

  it('accepts a CAPTCHA solution once (a replay is refused), and refuses forged and expired ones', async () => {
    const token = await solvedToken();
    expect((await submit(testimonial(token))).status).toBe(201);
    expectError(await submit(testimonial(token)), 403, 'captcha_rejected');
    expectError(await submit(testimonial(Buffer.from('{"nope":1}').toString('base64'))), 403, 'captcha_rejected');

    const payload = JSON.parse(Buffer.from(await solvedToken(), 'base64').toString());
    payload.challenge.parameters.expiresAt = Math.floor(Date.now() / 1000) + 3600;
    expectError(await submit(testimonial(Buffer.from(JSON.stringify(payload)).toString('base64'))), 403, 'captcha_rejected');
    const stale = JSON.parse(Buffer.from(await solvedToken(), 'base64').toString());
    stale.challenge.parameters.expiresAt = Math.floor(Date.now() / 1000) - 1;
    expectError(await submit(testimonial(Buffer.from(JSON.stringify(stale)).toString('base64'))), 403, 'captcha_rejected');
  });

  it('answers testimonial_invalid with details for each field rule', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A' }, 'name'],
      [{ name: 'x'.repeat(81) }, 'name'],
      [{ company: ' ' }, 'company'],
      [{ quote: 'too short' }, 'quote'],
      [{ quote: 'q'.repeat(1001) }, 'quote'],
      [{ permission: false }, 'permission'],
      [{ captcha_token: '' }, 'captcha_token'],
      [{ extra: 1 }, 'extra'],
    ];
    for (const [change, field] of cases) {
      const refused = await submit({ ...testimonial('token'), ...change });
      expectError(refused, 400, 'testimonial_invalid');
      expect(refused.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
    }
    expectError(await api('/v1/testimonials', { method: 'POST', rawBody: '{', headers: { origin: origin(), 'content-type': 'application/json' } }), 400, 'testimonial_invalid');
    expectError(await api('/v1/testimonials', { method: 'POST', rawBody: '{}', headers: { origin: origin(), 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
  });

  it('limits each client address: 429 testimonial_rate_limited with Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await submit(testimonial(await solvedToken()))).status).toBe(201);
    const limited = await submit(testimonial(await solvedToken()));
    expectError(limited, 429, 'testimonial_rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }, 120_000);
  it('the service page sends one in a real browser: the widget solves the challenge and the form posts it', async () => {
    const executablePath = process.env.SVC_CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
    const browser = await puppeteer.launch({ executablePath, headless: headlessMode(executablePath), args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${baseUrl()}/testimonials`, { waitUntil: 'networkidle0' });
      await page.type('input[name="name"]', 'Grace Hopper');
      await page.type('input[name="company"]', 'Compilers Inc');
      await page.type('textarea[name="quote"]', 'Every certificate came out right on the first try.');
      await page.click('input[name="permission"]');
      // the widget's own checkbox starts the proof of work; its payload fills the hidden field
      await page.locator('altcha-widget >>> input[type="checkbox"]').click();
      await page.waitForFunction(() => ((document.querySelector('input[name="captcha_token"]') as HTMLInputElement | null)?.value ?? '').length > 0, { timeout: 60_000 });
      await page.click('button[type="submit"]');
      await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent?.includes('Thank you'), { timeout: 30_000 });
      expect(await serviceDb().testimonial.count({ where: { name: 'Grace Hopper', company: 'Compilers Inc' } })).toBe(1);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
