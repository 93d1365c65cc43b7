// Webhook destinations from the dashboard, delivered for real: a service of its own whose
// egress allowlist names a loopback HTTPS receiver, driven from a real browser.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, screenshot, signIn, type SignInService, signInServiceOf, useBrowser } from './support/browser.ts';
import { startWebhookEnv, type WebhookEnv } from './support/webhook-env.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';
import { makeTestTls } from './support/webhook-tls.ts';

let env: WebhookEnv;
let receiver: Receiver;
let service: SignInService;

beforeAll(async () => {
  const tls = makeTestTls();
  receiver = await startReceiver(tls);
  env = await startWebhookEnv({ allowlist: `localhost:${receiver.port}`, caBundlePath: tls.bundlePath });
  service = signInServiceOf(env);
}, 180_000);

afterAll(async () => {
  await env?.stop();
  await receiver?.close();
});

describe('webhooks on the Developers page', () => {
  const browser = useBrowser({ baseUrl: () => env.baseUrl });

  it('creates a destination (secret shown once), sends a test event to the receiver and lists it in the delivery log', async () => {
    const page = browser.page();
    await signIn(page, { service });
    await page.goto('/dashboard/developers');
    await page.getByLabel('Endpoint URL').fill(`https://localhost:${receiver.port}/hooks/dashboard`);
    // only render.failed
    await page.getByRole('checkbox', { name: 'render.cancelled' }).uncheck();
    await page.getByRole('checkbox', { name: 'render.succeeded' }).uncheck();
    await page.getByRole('button', { name: 'Add destination' }).click();
    const secret = (await page.getByTestId('secret-value').textContent({ timeout: 60_000 })) ?? '';
    expect(secret).toMatch(/^svc_whsec_[0-9a-f]{64}$/);
    const row = page.getByTestId('webhook');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Events: render.failed');

    await row.getByRole('button', { name: 'Send test event' }).click();
    const [delivered] = await receiver.waitFor(1);
    expect(delivered!.path).toBe('/hooks/dashboard');
    expect(JSON.parse(delivered!.rawBody).type).toBe('render.succeeded');
    // signed with the secret the page showed (the same t=,v1= scheme as Stripe's verifier)
    expect(() => Stripe.webhooks.constructEvent(delivered!.rawBody, String(delivered!.headers['svc-signature']), secret)).not.toThrow();
    await expect.poll(() => row.getByRole('status').filter({ hasText: 'Delivered' }).textContent()).toContain('answered 200');

    await page.reload();
    await page.getByText(/^Delivery log/).click();
    await expect.poll(() => page.getByTestId('delivery-log').textContent()).toContain('render.succeeded');
    expect(await page.getByTestId('delivery-log').textContent()).toContain('200');
    await expectAccessible(page);
    await screenshot(page, 'developers-webhooks');
  });

  it('disables and enables a destination, and rotates its secret (the new one shown once)', async () => {
    const page = browser.page();
    await signIn(page, { service });
    await page.goto('/dashboard/developers');
    await page.getByLabel('Endpoint URL').fill(`https://localhost:${receiver.port}/hooks/toggle`);
    await page.getByRole('button', { name: 'Add destination' }).click();
    const first = (await page.getByTestId('secret-value').textContent({ timeout: 60_000 })) ?? '';
    const row = page.getByTestId('webhook');
    await row.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => row.textContent()).toContain('disabled');
    await row.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => row.getByRole('button', { name: 'Disable' }).count()).toBe(1);

    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate' }).click();
    const rotated = row.getByTestId('secret-value');
    await expect.poll(() => rotated.textContent()).toMatch(/^svc_whsec_[0-9a-f]{64}$/);
    expect(await rotated.textContent()).not.toBe(first);
  });

  it('refuses a destination outside the egress policy, saying why in words', async () => {
    const page = browser.page();
    await signIn(page, { service });
    await page.goto('/dashboard/developers');
    await page.getByLabel('Endpoint URL').fill('https://127.0.0.1:8443/private');
    await page.getByRole('button', { name: 'Add destination' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'cannot receive events' });
    await expect.poll(() => alert.textContent()).toContain('it names a port other than the standard https port');
    expect(await alert.textContent()).not.toMatch(/url\.\w+/);
    expect(await page.getByTestId('webhook').count()).toBe(0);
  });
});
