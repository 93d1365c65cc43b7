// A steady load for fault tests, and the checks after a fault. A few clients loop over a
// synchronous PDF, an asynchronous PNG and a two-row batch, each sent with an Idempotency-Key
// and sent again with the same key after a dropped connection, a 429 or a 503, as a careful
// client does; then every job must end once, be charged at most once, download if it
// succeeded, and every webhook event must reach the receiver with a valid signature.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { expect } from 'vitest';
import type { ApiResponse } from './api.ts';
import type { FaultEnv } from './fault-env.ts';
import { until } from './until.ts';

export interface FaultAccount {
  accountId: string;
  apiKey: string;
  credits: number;
  webhook: { id: string; secret: string };
  templateId: string;
}

/** An account with a webhook destination for every render event and a template for batches. */
export async function faultAccount(env: FaultEnv, path: string): Promise<FaultAccount> {
  const credits = 1000;
  const { accountId, apiKey } = await env.newAccount(credits);
  const hook = await env.call('/v1/webhooks', { method: 'POST', key: apiKey, body: { url: `https://localhost:${env.receiver.port}${path}` } });
  expect(hook.status, hook.text).toBe(201);
  const template = await env.call('/v1/templates', { method: 'POST', key: apiKey, body: { source: '<h1>Row {{ n }}</h1>' }, headers: { 'idempotency-key': randomUUID() } });
  expect(template.status, template.text).toBe(201);
  return { accountId, apiKey, credits, webhook: { id: hook.body.id, secret: hook.body.secret }, templateId: template.body.id };
}

type Sent = { kind: 'pdf' | 'image'; id: string } | { kind: 'batch'; id: string };

/** Answers a careful client sends again with the same key: the service was busy or unreachable. */
const retried = new Set([429, 502, 503, 504]);

export class SteadyLoad {
  readonly sent: Sent[] = [];
  /** Answers no retry can explain (a 500, a 4xx to a valid request), as "status body". */
  readonly unexpected: string[] = [];
  #stopped = false;
  #clients: Promise<void>[] = [];
  #count = 0;

  constructor(
    private readonly env: FaultEnv,
    private readonly account: FaultAccount,
  ) {}

  start(clients = 3): this {
    this.#clients = Array.from({ length: clients }, () => this.#loop());
    return this;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#clients);
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      const n = this.#count++;
      const job = [this.#syncPdf, this.#asyncImage, this.#batch][n % 3]!.call(this, n);
      await job;
    }
  }

  // the page keeps the browser busy a moment, so a fault finds renders in flight
  #html = (n: number) => `<script>const end = Date.now() + 300; while (Date.now() < end) {}</script><h1>Render ${n}</h1>`;

  async #syncPdf(n: number) {
    const answer = await this.#send('/v1/pdf', { html: this.#html(n), javascript: { mode: 'enabled' } }, [200, 202]);
    if (answer) this.sent.push({ kind: 'pdf', id: answer.body.id });
  }

  async #asyncImage(n: number) {
    const answer = await this.#send('/v1/image', { html: this.#html(n), javascript: { mode: 'enabled' }, image: { format: 'png' }, wait: false }, [200, 202]);
    if (answer) this.sent.push({ kind: 'image', id: answer.body.id });
  }

  async #batch(n: number) {
    const answer = await this.#send('/v1/batches', { template_id: this.account.templateId, format: 'pdf', rows: [{ n }, { n: n + 1 }] }, [201]);
    if (answer) this.sent.push({ kind: 'batch', id: answer.body.id });
  }

  /** Sends until an answer in `accepted` (null if none came in 90 s), the same key every time. */
  async #send(path: string, body: unknown, accepted: number[]): Promise<ApiResponse | null> {
    const headers = { 'idempotency-key': randomUUID() };
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const answer = await this.env.call(path, { method: 'POST', key: this.account.apiKey, body, headers }).catch(() => null);
      if (answer && accepted.includes(answer.status)) return answer;
      if (answer && !retried.has(answer.status)) {
        this.unexpected.push(`${path} ${answer.status} ${answer.text.slice(0, 300)}`);
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    this.unexpected.push(`${path} no answer in 90 s`);
    return null;
  }
}

export interface FaultFigures {
  fault: string;
  jobs: number;
  succeeded: number;
  failed: number;
  /** Why jobs failed: "category/code" and how many. */
  failures: Record<string, number>;
  batches: number;
  webhookEvents: number;
  lost: number;
  doubleCharged: number;
}

const terminal = ['succeeded', 'failed', 'cancelled'];
const finishedGroup = new Set(['complete', 'partial', 'failed', 'cancelled']);

/** Moves scheduled webhook retries to now, in the delivery and in the queue, instead of waiting minutes. */
export async function retryWebhooksNow(env: FaultEnv, webhookId: string): Promise<void> {
  const db = env.database.db;
  const deliveries = await db.webhookDelivery.findMany({ where: { webhookId, state: 'scheduled', nextAttemptAt: { gt: new Date() } } });
  for (const delivery of deliveries) {
    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { nextAttemptAt: new Date() } });
    await db.$executeRaw`SELECT graphile_worker.reschedule_jobs(
      ARRAY(SELECT id FROM graphile_worker.jobs WHERE key = ${`webhook-delivery:${delivery.id}`}), run_at := now())`;
  }
}

/** Whether the svc-signature header signs `body` with `secret` (the delivery contract's signature rule: HMAC-SHA256 over "<t>.<body>"). */
export function validSignature(header: string | undefined, body: string, secret: string, receivedAt: number): boolean {
  const parts = (header ?? '').split(',');
  const timestamp = parts.find((part) => part.startsWith('t='))?.slice(2);
  if (!timestamp || Math.abs(receivedAt / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  return parts
    .filter((part) => part.startsWith('v1='))
    .some((part) => {
      const given = Buffer.from(part.slice(3), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/**
 * After the load stopped and the fault cleared: waits for every job, batch and delivery of the
 * account to finish, checks each, prints the figures and returns them.
 */
export async function checkAfterFault(env: FaultEnv, account: FaultAccount, load: SteadyLoad, fault: string): Promise<FaultFigures> {
  const db = env.database.db;
  const where = { accountId: account.accountId };
  const webErrors = env.web.output().split('\n').filter((line) => line.includes('"level":"error"')).slice(-5).join('\n');
  expect(load.unexpected, `${fault}; the web process logged:\n${webErrors}`).toEqual([]);

  // every batch finishes, then every job of the account (members included) ends
  for (const sent of load.sent.filter((each) => each.kind === 'batch')) {
    await until(async () => {
      const read = await env.call(`/v1/batches/${sent.id}`, { key: account.apiKey });
      return read.status === 200 && finishedGroup.has(read.body.state);
    }, 150_000);
  }
  await until(async () => (await db.renderJob.count({ where: { ...where, status: { notIn: terminal as never } } })) === 0, 150_000).catch(async (error) => {
    const open = await db.renderJob.findMany({ where: { ...where, status: { notIn: terminal as never } }, select: { id: true, status: true, attempts: true, leaseExpiresAt: true } });
    throw new Error(`${fault}: ${error.message}; unfinished ${JSON.stringify(open)}; worker said: ${env.worker.output().slice(-3000)}`);
  });

  const jobs = await db.renderJob.findMany({ where });
  const byId = new Map(jobs.map((job) => [job.id, job]));
  const sentJobs = load.sent.filter((each) => each.kind !== 'batch');
  const lost = sentJobs.filter((each) => !byId.has(each.id)).length;
  const batchRows = await db.renderGroupMember.findMany({ where: { groupId: { in: load.sent.filter((each) => each.kind === 'batch').map((each) => each.id) } } });
  // a row of a finished batch was admitted as a job (or refused, never left pending)
  const missingRows = batchRows.filter((row) => (row.jobId === null ? row.state === 'pending' : !byId.has(row.jobId))).length;

  let doubleCharged = 0;
  const ledger = await db.creditLedgerEntry.findMany({ where: { ...where, jobId: { not: null } } });
  for (const job of jobs) {
    const entries = ledger.filter((entry) => entry.jobId === job.id).map((entry) => entry.kind);
    const settles = entries.filter((kind) => kind === 'settle').length;
    if (settles > 1) doubleCharged++;
    const events = await db.renderEvent.findMany({ where: { jobId: job.id } });
    expect(events.map((event) => event.type), `${fault}: events of ${job.id}`).toEqual([`render.${job.status}`]);
    if (job.status === 'succeeded') {
      expect(entries.sort(), `${fault}: ledger of ${job.id}`).toEqual(['reserve', 'settle']);
      expect(job.credit).toBe('settled');
    } else {
      expect(entries.sort(), `${fault}: ledger of ${job.id} (${job.status} ${job.errorCode})`).toEqual(['release', 'reserve']);
      expect(job.credit).toBe('released');
    }
  }
  expect(await db.creditReservation.count({ where: { ...where, state: 'reserved' } }), `${fault}: reservations left`).toBe(0);
  const succeeded = jobs.filter((job) => job.status === 'succeeded');
  const balances = await db.creditBalance.findMany({ where });
  const spent = account.credits - balances.reduce((sum, balance) => sum + balance.balance, 0);
  doubleCharged += Math.max(0, spent - succeeded.length);
  expect(spent, `${fault}: credits spent against succeeded jobs`).toBe(succeeded.length);

  for (const job of succeeded) {
    const read = await env.call(`/v1/${job.kind === 'pdf' ? 'pdf' : 'image'}/${job.id}`, { key: account.apiKey });
    expect(read.status, read.text).toBe(200);
    const file = await fetch(read.body.download.url);
    expect(file.status, `${fault}: download of ${job.id}`).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex'), `${fault}: bytes of ${job.id}`).toBe(job.sha256);
  }

  // every render event fans out to the destination and arrives, signed, at least once
  const events = await db.renderEvent.findMany({ where });
  const deliveries = await until(async () => {
    await retryWebhooksNow(env, account.webhook.id);
    const rows = await db.webhookDelivery.findMany({ where: { webhookId: account.webhook.id } });
    return rows.length === events.length && rows.every((row) => row.state === 'delivered') ? rows : null;
  }, 150_000).catch(async (error) => {
    const rows = await db.webhookDelivery.findMany({ where: { webhookId: account.webhook.id, state: { not: 'delivered' } } });
    throw new Error(`${fault}: ${error.message}; ${events.length} events, undelivered ${JSON.stringify(rows.map((row) => [row.id, row.state, row.attempts]))}`);
  });
  expect(new Set(deliveries.map((delivery) => delivery.eventId))).toEqual(new Set(events.map((event) => event.id)));
  const arrived = new Map<string, boolean>();
  for (const request of env.delivered) {
    const body = JSON.parse(request.rawBody) as { id: string };
    if (validSignature(request.headers['svc-signature'] as string | undefined, request.rawBody, account.webhook.secret, request.receivedAt)) arrived.set(body.id, true);
  }
  const unsigned = deliveries.filter((delivery) => !arrived.has(delivery.eventId)).map((delivery) => delivery.eventId);
  expect(unsigned, `${fault}: events without a validly signed delivery`).toEqual([]);

  const figures: FaultFigures = {
    fault,
    jobs: jobs.length,
    succeeded: succeeded.length,
    failed: jobs.length - succeeded.length,
    failures: failureCounts(jobs.filter((job) => job.status !== 'succeeded')),
    batches: load.sent.filter((each) => each.kind === 'batch').length,
    webhookEvents: events.length,
    lost: lost + missingRows,
    doubleCharged,
  };
  expect(figures.lost, `${fault}: lost jobs`).toBe(0);
  expect(figures.doubleCharged, `${fault}: double charges`).toBe(0);
  console.log(
    `fault "${fault}": jobs ${figures.jobs} (succeeded ${figures.succeeded}, failed ${figures.failed}${describeFailures(figures.failures)}, batches ${figures.batches}), ` +
      `webhook events ${figures.webhookEvents}, faults 1, lost ${figures.lost}, double-charged ${figures.doubleCharged}`,
  );
  return figures;
}

function failureCounts(jobs: { errorCategory: string | null; errorCode: string | null }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const job of jobs) {
    const reason = `${job.errorCategory}/${job.errorCode}`;
    counts[reason] = (counts[reason] ?? 0) + 1;
  }
  return counts;
}

const describeFailures = (failures: Record<string, number>) =>
  Object.keys(failures).length === 0 ? '' : ` [${Object.entries(failures).map(([reason, count]) => `${reason} x${count}`).join(', ')}]`;
