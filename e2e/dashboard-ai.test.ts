// The AI pages in a real browser. With a model: a service of its own (web and worker) pointed
// at the scripted OpenAI-compatible model on 127.0.0.1, as the API's AI tests do; a build is
// started from words with a brand kit, its progress shown while it runs, its candidate preview
// shown, and its draft applied as a saved template; then a chat on that template, applied as the
// next version, with the model's image suggestion. Without a model (the shared service): the
// page says AI is not set up here and offers only a source, which still makes a draft at no cost.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.ts';
import { expectAccessible, screenshot, signIn, type SignInService, signInServiceOf, useBrowser } from './support/browser.ts';
import { png } from './support/images.ts';
import { draftReply, type ScriptedModel, startScriptedModel } from './support/scripted-model.ts';
import { startWebhookEnv, type WebhookEnv } from './support/webhook-env.ts';

/** axe on the page once its title is in (after a client-side navigation Next sets it a moment later). */
async function accessible(page: Page): Promise<void> {
  await expect.poll(() => page.title()).not.toBe('');
  await expectAccessible(page);
}

const draft = {
  source: '<!doctype html><html><body style="color: {{ brand.colours.primary }}"><h1 id="hero">{{ title }}</h1></body></html>',
  sample_data: { title: 'Spring menu' },
  schema: { type: 'object', required: ['title'] },
};

describe('AI with a model', () => {
  let model: ScriptedModel;
  let env: WebhookEnv;
  let service: SignInService;

  beforeAll(async () => {
    model = await startScriptedModel();
    env = await startWebhookEnv({
      allowlist: model.hostPort,
      env: { SVC_AI_BASE_URL: model.baseUrl, SVC_AI_MODEL: 'scripted-model', SVC_AI_API_KEY: 'sk-scripted', SVC_AI_TIMEOUT_SECONDS: '10', SVC_AI_MAX_ATTEMPTS: '1', SVC_AI_MAX_REVIEWS: '1' },
    });
    service = signInServiceOf(env);
  }, 180_000);

  afterAll(async () => {
    await env?.stop();
    await model?.close();
  });

  const browser = useBrowser({ baseUrl: () => env.baseUrl });

  it('builds a template from words with a brand kit, shows progress and the preview, applies it, then changes it by chat', async () => {
    const page = browser.page();
    const account = await signIn(page, { service, plan: 'scale', credits: 200 });
    const marker = `Kit ${randomUUID()}`;
    const kit = await env.call('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: marker, colours: ['#0a5c36'] } });
    expect(kit.status).toBe(201);
    const proposal = { prompt: 'A plate of spring vegetables', aspect_ratio: '16:9', target_layer_id: 'hero' };
    const larger = draftReply({ ...draft, source: draft.source.replace('<h1', '<h1 style="font-size: 64px"'), image_proposal: proposal } as never);
    model.script(marker, [
      // the first generation takes a few seconds, so the page shows it running
      { reply: draftReply(draft), delayMs: 3000 },
      { reply: draftReply(draft) },
      // the chat's reply carries an image suggestion (the review answers it unchanged)
      { reply: larger, delayMs: 1500 },
      { reply: larger },
    ]);

    await page.goto('/dashboard/ai');
    await page.getByLabel('Brand kit').selectOption(kit.body.id);
    // a damaged PNG, refused by the core's upload rules: the API's code, nothing held
    await page.getByRole('radio', { name: 'An image' }).check();
    await page.getByLabel('Image', { exact: true }).setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: (await png(400, 300)).subarray(0, 80) });
    await page.getByRole('button', { name: 'Start build' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('image_asset_invalid');
    expect((await env.call('/v1/me', { key: account.apiKey })).body.reserved).toBe(0);
    // credits shown before sending: a build from words reserves 50, a source nothing
    await expect.poll(() => page.getByTestId('message-price').textContent()).toContain('50 credits');
    await page.getByRole('radio', { name: 'Template source (no AI)' }).check();
    await expect.poll(() => page.getByTestId('message-price').textContent()).toContain('costs nothing');
    await page.getByRole('radio', { name: 'Words' }).check();
    await page.getByLabel('Describe the template').fill('A menu card for spring');
    await page.getByLabel('Output').selectOption('pdf');
    await accessible(page);
    await screenshot(page, 'ai');
    await page.getByRole('button', { name: 'Start build' }).click();

    await expect.poll(() => new URL(page.url()).pathname, { timeout: 60_000 }).toMatch(/^\/dashboard\/ai\/builds\/build_[0-9a-f]{32}$/);
    const buildId = new URL(page.url()).pathname.split('/').pop()!;
    // while it runs: the stage and the seconds elapsed, moving
    const progress = page.getByTestId('message-progress');
    await progress.waitFor();
    expect(await page.getByTestId('progress-stage').textContent()).toMatch(/Writing the draft|Waiting for a worker/);
    await expect.poll(() => progress.textContent(), { timeout: 60_000 }).toMatch(/[1-9]\d* s elapsed/);
    expect((await env.call('/v1/me', { key: account.apiKey })).body.reserved).toBe(50);

    const message = page.getByTestId('ai-message');
    await expect.poll(() => message.getAttribute('data-state'), { timeout: 60_000 }).toBe('succeeded');
    const preview = page.getByTestId('candidate-preview');
    await preview.waitFor();
    const previewUrl = (await page.getByTestId('preview-link').getAttribute('href'))!;
    const file = await page.request.get(previewUrl);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await env.call('/v1/me', { key: account.apiKey })).body).toMatchObject({ reserved: 0 });
    await accessible(page);
    await screenshot(page, 'ai-build');

    await page.getByRole('button', { name: 'Apply draft' }).click();
    await page.getByText(/This draft is version 1 of tpl_/).waitFor();
    const build = await env.call(`/v1/template-builds/${buildId}`, { key: account.apiKey });
    const templateId = build.body.published_template_id as string;
    expect(templateId).toMatch(/^tpl_[0-9a-f]{32}$/);
    const saved = await env.call(`/v1/templates/${templateId}`, { key: account.apiKey });
    expect(saved.body).toMatchObject({ latest_version: 1, source: draft.source });

    // the template's chat: 25 credits for words, progress, preview, apply as version 2, the suggestion
    await page.goto('/dashboard/ai');
    await page.getByLabel('Template', { exact: true }).selectOption(templateId);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard/ai/chat/${templateId}`);
    await page.getByText('No messages yet').waitFor();
    await expect.poll(() => page.getByTestId('message-price').textContent()).toContain('25 credits');
    await accessible(page);
    await page.getByLabel('Describe the template').fill('Make the title larger');
    await page.getByLabel('Output').selectOption('png');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('message-progress').waitFor();
    const chatMessage = page.getByTestId('ai-message');
    await expect.poll(() => chatMessage.getAttribute('data-state'), { timeout: 60_000 }).toBe('succeeded');
    // an image preview is shown as the image itself, at the output's size
    const previewImage = page.getByRole('img', { name: 'Preview of this draft' });
    await expect.poll(() => previewImage.evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0))).toBe(1200);
    const suggestion = page.getByTestId('image-proposal');
    await expect.poll(() => suggestion.textContent()).toContain('A plate of spring vegetables');
    expect(await suggestion.textContent()).toContain('pending');
    await accessible(page);
    await screenshot(page, 'ai-chat');

    await page.getByRole('button', { name: 'Apply as new version' }).click();
    await expect.poll(() => chatMessage.textContent()).toContain('applied as a new version (version 2)');
    const after = await env.call(`/v1/templates/${templateId}`, { key: account.apiKey });
    expect(after.body.latest_version).toBe(2);
    expect(after.body.source).toContain('font-size: 64px');
    await suggestion.getByRole('button', { name: 'Approve suggestion' }).click();
    await expect.poll(() => suggestion.textContent()).toContain('approved');
    // 50 for the build and 25 for the chat message, settled
    expect((await env.call('/v1/me', { key: account.apiKey })).body).toMatchObject({ reserved: 0 });
  }, 180_000);
});

describe('AI without a model', () => {
  const browser = useBrowser();

  it('says AI is not set up, offers only a source (no "let the model choose") and still makes a draft from it at no cost', async () => {
    const page = browser.page();
    const account = await signIn(page);
    const kit = await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Plain', colours: ['#222222'] } });
    expect(kit.status).toBe(201);
    await page.goto('/dashboard/ai');
    const notice = page.getByTestId('ai-not-set-up');
    await expect.poll(() => notice.textContent()).toContain('AI is not set up on this installation');
    // said in words: no setting names, no status, no code
    expect(await notice.innerText()).not.toMatch(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[45]\d\d\b|provider_unavailable/);
    // what cannot be used is not offered
    expect(await page.getByRole('radio').count()).toBe(0);
    const outputs = await page.getByLabel('Output').locator('option').allTextContents();
    expect(outputs).toEqual(['PDF document', 'PNG image', 'JPEG image', 'WebP image']);
    await expect.poll(() => page.getByTestId('message-price').textContent()).toContain('costs nothing');
    await accessible(page);
    await page.getByLabel('Template source', { exact: true }).fill('<!doctype html><p>{{ brand.name }}</p>');
    await page.getByRole('button', { name: 'Start build' }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 60_000 }).toMatch(/^\/dashboard\/ai\/builds\//);
    await expect.poll(() => page.getByTestId('ai-message').getAttribute('data-state')).toBe('succeeded');
    await page.getByRole('button', { name: 'Apply draft' }).click();
    await page.getByText(/This draft is version 1 of tpl_/).waitFor();
    const me = await api('/v1/me', { key: account.apiKey });
    expect(me.body.reserved).toBe(0);
  });
});
