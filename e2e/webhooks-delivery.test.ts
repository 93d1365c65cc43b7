// Real deliveries: a service of its own (web and worker processes, allowlist naming a
// loopback HTTPS receiver, test CA trusted) renders real jobs, and every signature the
// receiver gets is checked with the stripe package's verifier (the same t=,v1= scheme).
import { createHmac } from 'node:crypto';
import { processMetrics } from '../packages/core/src/metrics/metrics.ts';
import { finishRender } from '../packages/core/src/renders/finish-render.ts';
import { newId } from '../packages/core/src/shared/ids.ts';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/api.ts';
import { until } from './support/until.ts';
import { startWebhookEnv, type WebhookEnv } from './support/webhook-env.ts';
import { type ReceivedRequest, type Receiver, startReceiver } from './support/webhook-receiver.ts';
import { makeTestTls } from './support/webhook-tls.ts';

let env: WebhookEnv;
let receiver: Receiver;
/** Status each receiver path answers with, in order; the last one repeats. */
const answers = new Map<string, number[]>();

beforeAll(async () => {
  const tls = makeTestTls();
  receiver = await startReceiver(tls);
  receiver.respondWith((request, response) => {
    const queue = answers.get(request.path) ?? [200];
    const status = queue.length > 1 ? (queue.shift() as number) : (queue[0] as number);
    response.writeHead(status).end();
  });
  env = await startWebhookEnv({ allowlist: `localhost:${receiver.port}`, caBundlePath: tls.bundlePath });
}, 180_000);

afterAll(async () => {
  await env?.stop();
  await receiver?.close();
});

const at = (path: string) => receiver.received.filter((request) => request.path === path);
const waitAt = (path: string, count: number, timeoutMs = 40_000) =>
  until(async () => (at(path).length >= count ? at(path) : null), timeoutMs);

/** Verifies with the stripe verifier and returns the parsed event. */
function verified(request: ReceivedRequest, secret: string) {
  const header = request.headers['svc-signature'] as string;
  return Stripe.webhooks.constructEvent(request.rawBody, header, secret) as unknown as {
    id: string;
    type: string;
    created_at: string;
    data: { job: { id: string; state: string; output: string; url: string } };
  };
}

async function destination(apiKey: string, path: string, events?: string[]) {
  const created = await env.call('/v1/webhooks', { method: 'POST', key: apiKey, body: { url: `https://localhost:${receiver.port}${path}`, events } });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

async function renderPdf(apiKey: string) {
  const response = await env.call('/v1/pdf', { method: 'POST', key: apiKey, body: { html: '<p>webhook</p>' } });
  expect(response.status).toBe(200);
  expect(response.body.status).toBe('succeeded');
  return response.body.id as string;
}

/** Moves a scheduled retry to now, in the delivery and in the queue, instead of waiting a minute. */
async function retryNow(webhookId: string) {
  const deliveries = await env.database.db.webhookDelivery.findMany({ where: { webhookId, state: 'scheduled' } });
  for (const delivery of deliveries) {
    await env.database.db.webhookDelivery.update({ where: { id: delivery.id }, data: { nextAttemptAt: new Date() } });
    await env.database.db.$executeRaw`SELECT graphile_worker.reschedule_jobs(
      ARRAY(SELECT id FROM graphile_worker.jobs WHERE key = ${`webhook-delivery:${delivery.id}`}), run_at := now())`;
  }
}

describe('webhook deliveries', () => {
  it('logs a warning at start in both processes because the allowlist is set', () => {
    for (const process of [env.web, env.worker]) expect(process.output()).toContain('SVC_UNSAFE_EGRESS_ALLOWLIST is set');
  });

  it('delivers a signed render.succeeded that the stripe verifier accepts', async () => {
    const account = await env.newAccount();
    const webhook = await destination(account.apiKey, '/hooks/succeeded');
    const jobId = await renderPdf(account.apiKey);
    const [request] = await waitAt('/hooks/succeeded', 1);
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = verified(request!, webhook.secret);
    expect(Object.keys(event).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(event.type).toBe('render.succeeded');
    expect(event.data.job).toEqual({ id: jobId, state: 'succeeded', output: 'pdf', url: `${env.baseUrl}/v1/pdf/${jobId}` });
    expect(() => Stripe.webhooks.constructEvent(request!.rawBody, request!.headers['svc-signature'] as string, `svc_whsec_${'0'.repeat(64)}`)).toThrow();

    const log = await until(async () => {
      const response = await env.call(`/v1/webhooks/${webhook.id}/deliveries`, { key: account.apiKey });
      return response.body.data[0]?.status_code ? response.body : null;
    });
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ event: 'render.succeeded', status_code: 200, is_test: false, retry_count: 0 });
    expect(log.data[0].id).toMatch(/^wa_[0-9a-f]{32}$/);
    const read = await env.call(`/v1/webhooks/${webhook.id}`, { key: account.apiKey });
    expect(read.body.failure_count).toBe(0);
    expect(read.body.last_delivery_at).not.toBeNull();
  });

  it('retries with the same event id and body, a new timestamp and signature, and a success resets failure_count', async () => {
    const account = await env.newAccount();
    answers.set('/hooks/retry', [500, 200]);
    const webhook = await destination(account.apiKey, '/hooks/retry');
    await renderPdf(account.apiKey);
    const [first] = await waitAt('/hooks/retry', 1);
    expect(verified(first!, webhook.secret).type).toBe('render.succeeded');
    await until(async () => (await env.call(`/v1/webhooks/${webhook.id}`, { key: account.apiKey })).body.failure_count === 1);
    const scheduled = await env.database.db.webhookDelivery.findFirstOrThrow({ where: { webhookId: webhook.id } });
    expect(scheduled.state).toBe('scheduled');
    expect(scheduled.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(50_000);

    await new Promise((resolve) => setTimeout(resolve, 1100)); // the next timestamp is a new second
    await retryNow(webhook.id);
    const [, second] = await waitAt('/hooks/retry', 2);
    expect(second!.rawBody).toBe(first!.rawBody);
    expect(second!.headers['svc-signature']).not.toBe(first!.headers['svc-signature']);
    expect(verified(second!, webhook.secret).id).toBe(verified(first!, webhook.secret).id);
    const log = await until(async () => {
      const response = await env.call(`/v1/webhooks/${webhook.id}/deliveries`, { key: account.apiKey });
      return response.body.data.length === 2 && response.body.data[0].status_code ? response.body : null;
    });
    expect(log.data.map((entry: { status_code: number; retry_count: number }) => [entry.status_code, entry.retry_count])).toEqual([
      [200, 1],
      [500, 0],
    ]);
    expect((await env.call(`/v1/webhooks/${webhook.id}`, { key: account.apiKey })).body.failure_count).toBe(0);
  });

  it('signs with both secrets during a rotation overlap, current first; a second rotation drops the oldest', async () => {
    const account = await env.newAccount();
    const webhook = await destination(account.apiKey, '/hooks/rotation');
    const rotated = await env.call(`/v1/webhooks/${webhook.id}/rotate`, { method: 'POST', key: account.apiKey });
    const second = rotated.body.secret as string;
    await renderPdf(account.apiKey);
    const [request] = await waitAt('/hooks/rotation', 1);
    const header = request!.headers['svc-signature'] as string;
    const [t, current, previous] = header.split(',');
    const timestamp = t!.slice(2);
    const hmac = (secret: string) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${request!.rawBody}`).digest('hex')}`;
    expect([current, previous]).toEqual([hmac(second), hmac(webhook.secret)]);
    expect(verified(request!, second).type).toBe('render.succeeded');
    expect(verified(request!, webhook.secret).type).toBe('render.succeeded');

    const third = (await env.call(`/v1/webhooks/${webhook.id}/rotate`, { method: 'POST', key: account.apiKey })).body.secret as string;
    await renderPdf(account.apiKey);
    const [, next] = await waitAt('/hooks/rotation', 2);
    expect(verified(next!, third).type).toBe('render.succeeded');
    expect(verified(next!, second).type).toBe('render.succeeded');
    expect(() => verified(next!, webhook.secret)).toThrow();
  });

  it('tests a destination, even a disabled one: 200 with the result, then 429 with Retry-After within the minute', async () => {
    const account = await env.newAccount();
    const webhook = await destination(account.apiKey, '/hooks/test');
    await env.call(`/v1/webhooks/${webhook.id}/disable`, { method: 'POST', key: account.apiKey });
    const tested = await env.call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST', key: account.apiKey });
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({ status_code: 200, delivered: true });
    const [request] = at('/hooks/test');
    const event = verified(request!, webhook.secret);
    expect(event.type).toBe('render.succeeded');
    expect(event.data.job).toEqual({ id: `pdf_${'0'.repeat(32)}`, state: 'succeeded', output: 'pdf', url: `${env.baseUrl}/v1/pdf/pdf_${'0'.repeat(32)}` });
    expect(await env.database.db.renderJob.count({ where: { accountId: account.accountId } })).toBe(0);

    const limited = await env.call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST', key: account.apiKey });
    const error = expectError(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(error.retry?.retry_after_seconds).toBe(retryAfter);

    const log = (await env.call(`/v1/webhooks/${webhook.id}/deliveries`, { key: account.apiKey })).body;
    expect(log.data).toEqual([expect.objectContaining({ event: 'render.succeeded', status_code: 200, is_test: true, retry_count: 0 })]);
    const read = (await env.call(`/v1/webhooks/${webhook.id}`, { key: account.apiKey })).body;
    expect(read).toMatchObject({ status: 'disabled', failure_count: 0 });
    expect(read.last_delivery_at).not.toBeNull();
  });

  it('answers 202 while a test waits in the queue, and keeps one waiting test per destination', async () => {
    const account = await env.newAccount();
    const webhook = await destination(account.apiKey, '/hooks/waiting');
    env.worker.child.kill('SIGSTOP');
    try {
      const [first, second] = await Promise.all([
        env.call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST', key: account.apiKey }),
        env.call(`/v1/webhooks/${webhook.id}/test`, { method: 'POST', key: account.apiKey }),
      ]);
      for (const response of [first, second]) {
        expect(response.status).toBe(202);
        expect(response.body).toEqual({ status_code: null, delivered: false });
      }
      expect(await env.database.db.webhookDelivery.count({ where: { webhookId: webhook.id, isTest: true } })).toBe(1);
    } finally {
      env.worker.child.kill('SIGCONT');
    }
    await waitAt('/hooks/waiting', 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(at('/hooks/waiting')).toHaveLength(1);
  }, 60_000);

  it('delivers render.failed and render.cancelled to the destinations that selected them; delete drops undelivered events', async () => {
    const account = await env.newAccount();
    const failedOnly = await destination(account.apiKey, '/hooks/failed', ['render.failed']);
    answers.set('/hooks/cancelled', [503]);
    const cancelledOnly = await destination(account.apiKey, '/hooks/cancelled', ['render.cancelled']);
    const finish = async (status: 'failed' | 'cancelled') => {
      const id = newId('image_');
      await env.database.db.renderJob.create({ data: { id, accountId: account.accountId, kind: 'image', filename: 'x', options: {}, credit: 'none' } });
      const outcome = status === 'failed' ? ({ status, category: 'internal_failure', code: 'render_failed' } as const) : ({ status } as const);
      await env.database.db.$transaction((tx) => finishRender(tx, { jobId: id, attempt: null, outcome, now: new Date(), metrics: processMetrics() }));
      return id;
    };
    const failedJob = await finish('failed');
    const cancelledJob = await finish('cancelled');
    const [failed] = await waitAt('/hooks/failed', 1);
    expect(verified(failed!, failedOnly.secret)).toMatchObject({
      type: 'render.failed',
      data: { job: { id: failedJob, state: 'failed', output: 'image', url: `${env.baseUrl}/v1/image/${failedJob}` } },
    });
    const [cancelled] = await waitAt('/hooks/cancelled', 1);
    expect(verified(cancelled!, cancelledOnly.secret)).toMatchObject({ type: 'render.cancelled', data: { job: { id: cancelledJob, state: 'cancelled' } } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(at('/hooks/failed')).toHaveLength(1);
    expect(at('/hooks/cancelled')).toHaveLength(1);

    // the cancelled event failed its first attempt and waits for a retry; deleting drops it
    await until(async () => (await env.database.db.webhookDelivery.findFirst({ where: { webhookId: cancelledOnly.id, state: 'scheduled' } })) !== null);
    expect((await env.call(`/v1/webhooks/${cancelledOnly.id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(204);
    expect(await env.database.db.webhookDelivery.count({ where: { webhookId: cancelledOnly.id } })).toBe(0);
  });

  it('replays failed events with their original ids and body, once', async () => {
    const account = await env.newAccount();
    answers.set('/hooks/replay', [500, 204]);
    const webhook = await destination(account.apiKey, '/hooks/replay');
    await renderPdf(account.apiKey);
    const [first] = await waitAt('/hooks/replay', 1);
    const delivery = await until(() => env.database.db.webhookDelivery.findFirst({ where: { webhookId: webhook.id, state: 'scheduled' } }));
    // the schedule's seven retries are driven by the unit tests; here the event is put where its last retry leaves it
    await env.database.db.webhookDelivery.update({ where: { id: delivery.id }, data: { state: 'failed', attempts: 8, nextAttemptAt: null, finishedAt: new Date() } });
    const replay = await env.call(`/v1/webhooks/${webhook.id}/replay`, { method: 'POST', key: account.apiKey });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ replayed: 1 });
    const [, again] = await waitAt('/hooks/replay', 2);
    expect(again!.rawBody).toBe(first!.rawBody);
    expect(verified(again!, webhook.secret).id).toBe(verified(first!, webhook.secret).id);
    await until(async () => (await env.database.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).state === 'delivered');
    const log = (await env.call(`/v1/webhooks/${webhook.id}/deliveries`, { key: account.apiKey })).body;
    expect(log.data.map((entry: { status_code: number; retry_count: number }) => [entry.status_code, entry.retry_count])).toEqual([
      [204, 0],
      [500, 0],
    ]);
    expect((await env.call(`/v1/webhooks/${webhook.id}/replay`, { method: 'POST', key: account.apiKey })).body).toEqual({ replayed: 0 });
  });
});
