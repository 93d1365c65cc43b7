// The delivery pipeline under a settable clock: fan-out, the retry schedule, the disable
// rule under concurrent failures, replay, tests, rotation expiry and crash recovery. The
// receiver is an allowlisted loopback port nobody listens on, so every attempt fails fast
// without a status and no traffic leaves the machine.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createWebhook, enableWebhook, fanOutRenderEvent, getWebhook, type Logger, pruneWebhookLog, recoverWebhookDeliveries, replayWebhook, rotateWebhookSecret, runWebhookAttempt, testWebhook } from '@svc/core';
import { activeSecrets, signatureHeader } from '../src/webhooks/webhook-secret.ts';
import { claimWebhookAttempt } from '../src/webhooks/claim-webhook-attempt.ts';
import { finishRender } from '../src/renders/finish-render.ts';
import { isSealed, openSecret, secretsKeys, webhookSecretPlace } from '../src/settings/sealed-secrets.ts';
import { newId } from '../src/shared/ids.ts';
import { retryDelaysMs } from '../src/webhooks/delivery-rules.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;
let closedPort = 0;
const warnings: string[] = [];
const capturingLogger: Logger = { info: () => {}, error: () => {}, warn: (message) => warnings.push(message) };

beforeAll(async () => {
  // a port that was free a moment ago: connections to it are refused at once
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  ctx.config = { ...ctx.config, egressAllowlist: [{ hostname: '127.0.0.1', port: closedPort }] };
  ctx.logger = capturingLogger;
});

const at = (iso: string) => new Date(iso);
const start = at('2026-03-15T12:00:00Z');

async function destination(events?: ('render.succeeded' | 'render.failed' | 'render.cancelled')[]) {
  test.setNow(start);
  const account = await accountWith(ctx, { plan: 'scale' });
  const { webhook } = await createWebhook(ctx, { accountId: account.accountId, request: { url: `https://127.0.0.1:${closedPort}/hook`, events } });
  return { accountId: account.accountId, webhook };
}

/** A render job that reaches a terminal state through finishRender, then its fan-out. */
async function finishedJob(accountId: string, status: 'cancelled' | 'failed' = 'cancelled') {
  const id = newId('pdf_');
  await ctx.db.renderJob.create({ data: { id, accountId, kind: 'pdf', filename: 'doc', options: {}, credit: 'none' } });
  const outcome = status === 'cancelled' ? ({ status } as const) : ({ status, category: 'internal_failure', code: 'render_failed' } as const);
  await ctx.db.$transaction((tx) => finishRender(tx, { jobId: id, attempt: null, outcome, now: ctx.clock(), metrics: ctx.metrics }));
  await fanOutRenderEvent(ctx, { jobId: id });
  return id;
}

const deliveriesOf = (webhookId: string) => ctx.db.webhookDelivery.findMany({ where: { webhookId }, orderBy: { createdAt: 'asc' } });
const queuedRunAt = async (deliveryId: string) => {
  const rows = await ctx.db.$queryRaw<{ run_at: Date }[]>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${`webhook-delivery:${deliveryId}`}`;
  return rows[0]?.run_at ?? null;
};

describe('fan-out', () => {
  it('creates one delivery per enabled destination that selected the kind, once however often it runs', async () => {
    const { accountId, webhook } = await destination(['render.cancelled']);
    const { webhook: other } = await createWebhook(ctx, { accountId, request: { url: `https://127.0.0.1:${closedPort}/b`, events: ['render.failed'] } });
    const jobId = await finishedJob(accountId, 'cancelled');
    expect(await fanOutRenderEvent(ctx, { jobId })).toBe(0);
    const [delivery] = await deliveriesOf(webhook.id);
    expect(await deliveriesOf(other.id)).toHaveLength(0);
    const event = await ctx.db.renderEvent.findFirstOrThrow({ where: { jobId } });
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(JSON.parse(delivery!.body)).toEqual({
      id: event.id,
      type: 'render.cancelled',
      created_at: start.toISOString(),
      data: { job: { id: jobId, state: 'cancelled', output: 'pdf', url: `${ctx.config.publicUrl}/v1/pdf/${jobId}` } },
    });
    expect(await queuedRunAt(delivery!.id)).not.toBeNull();
  });

  it('skips disabled destinations', async () => {
    const { accountId, webhook } = await destination();
    await ctx.db.webhook.update({ where: { id: webhook.id }, data: { status: 'disabled', disabledReason: 'owner_request' } });
    await finishedJob(accountId);
    expect(await deliveriesOf(webhook.id)).toHaveLength(0);
  });
});

describe('retry schedule', () => {
  it('makes eight attempts with growing delays over about a day, then fails the event for replay', async () => {
    const { accountId, webhook } = await destination();
    await finishedJob(accountId);
    const [delivery] = await deliveriesOf(webhook.id);
    let now = start;
    for (let attempt = 0; attempt < 8; attempt++) {
      test.setNow(now);
      expect(await runWebhookAttempt(ctx, { deliveryId: delivery!.id })).toEqual({ sent: true, statusCode: null, delivered: false });
      const row = await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id } });
      if (attempt < 7) {
        const due = new Date(now.getTime() + retryDelaysMs[attempt]!);
        expect(row).toMatchObject({ state: 'scheduled', attempts: attempt + 1, nextAttemptAt: due });
        expect((await queuedRunAt(delivery!.id))?.getTime()).toBe(due.getTime());
        // not due yet: nothing is sent
        test.setNow(new Date(due.getTime() - 1000));
        expect(await runWebhookAttempt(ctx, { deliveryId: delivery!.id })).toEqual({ sent: false });
        now = due;
      } else {
        expect(row).toMatchObject({ state: 'failed', attempts: 8, nextAttemptAt: null });
      }
    }
    expect(retryDelaysMs).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000]);
    expect(now.getTime() - start.getTime()).toBe((23 * 60 + 36) * 60_000);
    const attempts = await ctx.db.webhookAttempt.findMany({ where: { deliveryId: delivery!.id }, orderBy: { retryCount: 'asc' } });
    expect(attempts.map((attempt) => attempt.retryCount)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(attempts.every((attempt) => attempt.statusCode === null && attempt.failure === 'connection_failed')).toBe(true);
    expect((await getWebhook(ctx, { accountId, webhookId: webhook.id })).failureCount).toBe(8);

    // replay: a new round of eight with the same event id and body, no credits involved
    expect(await replayWebhook(ctx, { accountId, webhookId: webhook.id })).toBe(1);
    const replayed = await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id } });
    expect(replayed).toMatchObject({ state: 'scheduled', round: 1, attempts: 0, eventId: delivery!.eventId, body: delivery!.body });
    await runWebhookAttempt(ctx, { deliveryId: delivery!.id });
    expect(await ctx.db.webhookAttempt.count({ where: { deliveryId: delivery!.id, round: 1, retryCount: 0 } })).toBe(1);
    expect(await replayWebhook(ctx, { accountId, webhookId: webhook.id })).toBe(0);
  });
});

describe('disable rule', () => {
  it('disables after 50 consecutive failures exactly once, even when failures are recorded concurrently', async () => {
    const { accountId, webhook } = await destination();
    await ctx.db.webhook.update({ where: { id: webhook.id }, data: { failureCount: 44 } });
    for (let index = 0; index < 12; index++) await finishedJob(accountId);
    const deliveries = await deliveriesOf(webhook.id);
    warnings.length = 0;
    await Promise.all(deliveries.map((delivery) => runWebhookAttempt(ctx, { deliveryId: delivery.id })));
    const after = await getWebhook(ctx, { accountId, webhookId: webhook.id });
    expect(after).toMatchObject({ status: 'disabled', disabledReason: 'delivery_failure' });
    expect(after.failureCount).toBeGreaterThanOrEqual(50);
    expect(warnings.filter((message) => message.includes('disabled after consecutive'))).toHaveLength(1);

    // while disabled, due deliveries stop (and wait for a replay) without an attempt; replay answers 0
    const before = await ctx.db.webhookAttempt.count({ where: { webhookId: webhook.id } });
    test.setNow(new Date(start.getTime() + 3_600_000));
    for (const delivery of deliveries) await runWebhookAttempt(ctx, { deliveryId: delivery.id });
    expect(await ctx.db.webhookAttempt.count({ where: { webhookId: webhook.id } })).toBe(before);
    expect(await ctx.db.webhookDelivery.count({ where: { webhookId: webhook.id, state: 'failed' } })).toBe(12);
    expect(await replayWebhook(ctx, { accountId, webhookId: webhook.id })).toBe(0);

    const enabled = await enableWebhook(ctx, { accountId, webhookId: webhook.id });
    expect(enabled).toMatchObject({ status: 'enabled', disabledReason: null, failureCount: 0 });
    expect(await replayWebhook(ctx, { accountId, webhookId: webhook.id })).toBe(12);
  });

  it('leaves the failure count alone for tests, which still set last_delivery_at and schedule no retry', async () => {
    const { accountId, webhook } = await destination();
    await ctx.db.webhook.update({ where: { id: webhook.id }, data: { failureCount: 49 } });
    await testWebhook(ctx, { accountId, webhookId: webhook.id, waitMs: 0 });
    const [testDelivery] = await ctx.db.webhookDelivery.findMany({ where: { webhookId: webhook.id, isTest: true } });
    await runWebhookAttempt(ctx, { deliveryId: testDelivery!.id });
    const after = await getWebhook(ctx, { accountId, webhookId: webhook.id });
    expect(after).toMatchObject({ status: 'enabled', failureCount: 49, lastDeliveryAt: start });
    expect(await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: testDelivery!.id } })).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null });
  });
});

describe('tests', () => {
  it('keeps one waiting test per destination and allows one completed test per minute', async () => {
    const { accountId, webhook } = await destination();
    await ctx.db.webhook.update({ where: { id: webhook.id }, data: { status: 'disabled', disabledReason: 'owner_request' } });
    const first = await testWebhook(ctx, { accountId, webhookId: webhook.id, waitMs: 0 });
    expect(first).toEqual({ finished: false, statusCode: null, delivered: false });
    expect((await testWebhook(ctx, { accountId, webhookId: webhook.id, waitMs: 0 })).finished).toBe(false);
    const tests = await ctx.db.webhookDelivery.findMany({ where: { webhookId: webhook.id, isTest: true } });
    expect(tests).toHaveLength(1);
    const body = JSON.parse(tests[0]!.body);
    expect(body).toMatchObject({ type: 'render.succeeded', data: { job: { id: `pdf_${'0'.repeat(32)}`, state: 'succeeded', output: 'pdf' } } });

    // a disabled destination can still be tested
    await runWebhookAttempt(ctx, { deliveryId: tests[0]!.id });
    const finished = await testWebhook(ctx, { accountId, webhookId: webhook.id, waitMs: 0 }).catch((error) => error);
    expect(finished).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 60 });
    test.setNow(new Date(start.getTime() + 45_000));
    expect(await testWebhook(ctx, { accountId, webhookId: webhook.id }).catch((error) => error)).toMatchObject({ retryAfterSeconds: 15 });
    test.setNow(new Date(start.getTime() + 60_000));
    expect((await testWebhook(ctx, { accountId, webhookId: webhook.id, waitMs: 0 })).finished).toBe(false);
    // a recorded test result schedules no retry, and tests are never replayed
    expect(await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: tests[0]!.id } })).toMatchObject({ state: 'failed', nextAttemptAt: null });
    await enableWebhook(ctx, { accountId, webhookId: webhook.id });
    expect(await replayWebhook(ctx, { accountId, webhookId: webhook.id })).toBe(0);
  });
});

describe('rotation', () => {
  it('signs with both secrets for 24 hours, current first; a second rotation drops the oldest at once', async () => {
    test.setNow(start);
    const account = await accountWith(ctx, { plan: 'scale' });
    const accountId = account.accountId;
    const { webhook, secret: first } = await createWebhook(ctx, { accountId, request: { url: `https://127.0.0.1:${closedPort}/hook` } });
    const rotated = await rotateWebhookSecret(ctx, { accountId, webhookId: webhook.id });
    expect(rotated.webhook.previousSecretExpiresAt).toEqual(new Date(start.getTime() + 24 * 3_600_000));
    // both are stored sealed; the row is read as a delivery reads it
    const keys = secretsKeys(ctx.config.secrets);
    const row = async () => {
      const stored = await ctx.db.webhook.findUniqueOrThrow({ where: { id: webhook.id } });
      for (const value of [stored.secret, stored.previousSecret]) if (value !== null) expect(isSealed(value)).toBe(true);
      return { ...stored, secret: openSecret(keys, stored.secret, webhookSecretPlace(stored.id)), previousSecret: stored.previousSecret && openSecret(keys, stored.previousSecret, webhookSecretPlace(stored.id)) };
    };
    const sign = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

    const inOverlap = new Date(start.getTime() + 23 * 3_600_000);
    const header = signatureHeader(activeSecrets(await row(), inOverlap), '{"a":1}', inOverlap);
    const t = Math.floor(inOverlap.getTime() / 1000);
    expect(header).toBe(`t=${t},v1=${sign(rotated.secret, t, '{"a":1}')},v1=${sign(first, t, '{"a":1}')}`);

    const afterOverlap = new Date(start.getTime() + 24 * 3_600_000);
    expect(activeSecrets(await row(), afterOverlap)).toEqual([rotated.secret]);

    test.setNow(new Date(start.getTime() + 3_600_000));
    const second = await rotateWebhookSecret(ctx, { accountId, webhookId: webhook.id });
    const third = await rotateWebhookSecret(ctx, { accountId, webhookId: webhook.id });
    expect(activeSecrets(await row(), ctx.clock())).toEqual([third.secret, second.secret]);
    expect(third.webhook.previousSecretExpiresAt).toEqual(new Date(start.getTime() + 25 * 3_600_000));
  });
});

describe('crash recovery', () => {
  it('resends an attempt whose worker vanished under the same attempt record, never a second one', async () => {
    const { accountId, webhook } = await destination();
    await finishedJob(accountId);
    const [delivery] = await deliveriesOf(webhook.id);
    // a worker claims the attempt and dies before recording a result
    const claim = await claimWebhookAttempt(ctx, delivery!.id);
    expect(claim).not.toBeNull();
    expect(await runWebhookAttempt(ctx, { deliveryId: delivery!.id })).toEqual({ sent: false }); // leased
    test.setNow(new Date(start.getTime() + 30_000));
    expect(await recoverWebhookDeliveries(ctx)).toBe(0);
    test.setNow(new Date(start.getTime() + 61_000));
    expect(await recoverWebhookDeliveries(ctx)).toBe(1);
    expect(await runWebhookAttempt(ctx, { deliveryId: delivery!.id })).toMatchObject({ sent: true });
    const attempts = await ctx.db.webhookAttempt.findMany({ where: { deliveryId: delivery!.id } });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ id: claim!.attemptId, retryCount: 0, failure: 'connection_failed' });
    expect(await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id } })).toMatchObject({ state: 'scheduled', attempts: 1 });
  });
});

describe('delivery log retention', () => {
  it('prunes attempts older than 30 days', async () => {
    const { accountId, webhook } = await destination();
    await finishedJob(accountId);
    const [delivery] = await deliveriesOf(webhook.id);
    await runWebhookAttempt(ctx, { deliveryId: delivery!.id });
    test.setNow(new Date(start.getTime() + 29 * 24 * 3_600_000));
    await pruneWebhookLog(ctx);
    expect(await ctx.db.webhookAttempt.count({ where: { webhookId: webhook.id } })).toBe(1);
    test.setNow(new Date(start.getTime() + 31 * 24 * 3_600_000));
    await pruneWebhookLog(ctx);
    expect(await ctx.db.webhookAttempt.count({ where: { webhookId: webhook.id } })).toBe(0);
  });
});
