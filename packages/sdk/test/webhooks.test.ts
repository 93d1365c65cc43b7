// Real deliveries from a service of its own (its egress allowlist names a loopback HTTPS
// receiver), verified with the SDK: genuine ones pass, altered or late ones are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../e2e/support/until.ts';
import { startWebhookEnv, type WebhookEnv } from '../../../e2e/support/webhook-env.ts';
import { type ReceivedRequest, type Receiver, startReceiver } from '../../../e2e/support/webhook-receiver.ts';
import { makeTestTls } from '../../../e2e/support/webhook-tls.ts';
import { createRenderingClient, verifyWebhook, webhookSignatureHeader } from '../src/index.ts';
import { refusal } from './support/refusal.ts';

let env: WebhookEnv;
let receiver: Receiver;

beforeAll(async () => {
  const tls = makeTestTls();
  receiver = await startReceiver(tls);
  env = await startWebhookEnv({ allowlist: `localhost:${receiver.port}`, caBundlePath: tls.bundlePath });
}, 180_000);

afterAll(async () => {
  await env?.stop();
  await receiver?.close();
});

const deliveredTo = (path: string) => receiver.received.filter((request) => request.path === path);
const signatureOf = (request: ReceivedRequest) => request.headers[webhookSignatureHeader] as string;

describe('webhook verification', () => {
  it('accepts a real delivery of a render, and refuses it altered, late or under another secret', async () => {
    const account = await env.newAccount();
    const rendering = createRenderingClient({ apiKey: account.apiKey, baseUrl: env.baseUrl });
    const created = await rendering.api.POST('/v1/webhooks', {
      body: { url: `https://localhost:${receiver.port}/hooks/sdk`, events: ['render.succeeded'] },
    });
    const { secret } = created.data!;

    const job = await rendering.renderPdf({ html: '<p>announced</p>' });
    const [delivery] = await until(async () => (deliveredTo('/hooks/sdk').length ? deliveredTo('/hooks/sdk') : null));
    const signature = signatureOf(delivery!);

    const event = verifyWebhook({ payload: delivery!.rawBody, signature, secret });
    expect(event).toMatchObject({ type: 'render.succeeded', data: { job: { id: job.id, state: 'succeeded', output: 'pdf' } } });
    // the receiver reads the job with its own client rather than following the URL with its key
    expect((await rendering.getJob(event.data.job.id)).status).toBe('succeeded');
    expect(verifyWebhook({ payload: Buffer.from(delivery!.rawBody), signature, secret }).id).toBe(event.id);

    const tampered = delivery!.rawBody.replace('"succeeded"', '"failed"');
    expect(tampered).not.toBe(delivery!.rawBody);
    expect(refusal(() => verifyWebhook({ payload: tampered, signature, secret }))).toBe('signature_mismatch');
    const sixMinutesLater = new Date(delivery!.receivedAt + 6 * 60_000);
    expect(refusal(() => verifyWebhook({ payload: delivery!.rawBody, signature, secret, now: sixMinutesLater }))).toBe('timestamp_out_of_tolerance');
    expect(refusal(() => verifyWebhook({ payload: delivery!.rawBody, signature, secret: `svc_whsec_${'0'.repeat(64)}` }))).toBe('signature_mismatch');
  });

  it('accepts a delivery signed during a rotation overlap with the new or the previous secret', async () => {
    const account = await env.newAccount();
    const rendering = createRenderingClient({ apiKey: account.apiKey, baseUrl: env.baseUrl });
    const created = await rendering.api.POST('/v1/webhooks', { body: { url: `https://localhost:${receiver.port}/hooks/rotated` } });
    const webhook = created.data!;
    const rotated = await rendering.api.POST('/v1/webhooks/{webhook_id}/rotate', { params: { path: { webhook_id: webhook.id } } });
    const tested = await rendering.api.POST('/v1/webhooks/{webhook_id}/test', { params: { path: { webhook_id: webhook.id } } });
    expect(tested.response.ok).toBe(true);

    const [delivery] = await until(async () => (deliveredTo('/hooks/rotated').length ? deliveredTo('/hooks/rotated') : null));
    const signature = signatureOf(delivery!);
    expect(signature.split(',').filter((part) => part.startsWith('v1='))).toHaveLength(2);
    for (const secret of [rotated.data!.secret, webhook.secret]) {
      expect(verifyWebhook({ payload: delivery!.rawBody, signature, secret }).type).toBe('render.succeeded');
    }
  });
});
