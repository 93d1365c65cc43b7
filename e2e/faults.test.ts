// Faults under a steady load of renders, batches and webhook deliveries, one at a time on a
// service of its own (web and worker processes, an S3 store, an HTTPS webhook receiver):
// after each, every job ends once, no credit is settled twice or left reserved, every
// succeeded job's file downloads, and every webhook event arrives validly signed.
// (PostgreSQL restarted under the same load: faults-database.test.ts.)
import { createTestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserProcesses, descendants, type FaultEnv, killHard, startFaultEnv } from './support/fault-env.ts';
import { checkAfterFault, faultAccount, type FaultAccount, SteadyLoad } from './support/fault-load.ts';
import { until } from './support/until.ts';

let env: FaultEnv;

beforeAll(async () => {
  env = await startFaultEnv({
    database: await createTestDatabase(inject('dbServerUrl')),
    // a render may take 10 s and a vanished worker's lease runs out 15 s after its claim, so a
    // killed worker's renders are taken up within the test's bounds
    env: { SVC_RENDER_TIMEOUT_SECONDS: '10', SVC_RENDER_LEASE_SECONDS: '15' },
  });
}, 180_000);

afterAll(async () => {
  await env?.stop();
});

const runningRenders = (account: FaultAccount) => env.database.db.renderJob.count({ where: { accountId: account.accountId, status: 'running' } });

/** Lets the load run on until `count` more requests were answered, so work keeps flowing after the fault. */
async function loadContinues(load: SteadyLoad, count = 6) {
  const from = load.sent.length;
  await until(async () => load.sent.length >= from + count, 120_000);
}

describe('faults under a steady load', () => {
  it('kill -9 of the worker mid-render', async () => {
    const account = await faultAccount(env, '/hooks/worker-killed');
    const load = new SteadyLoad(env, account).start();
    await until(async () => (await runningRenders(account)) > 0);
    const browsers = descendants(env.worker.child.pid!);
    await killHard(env.worker);
    // a crashed worker leaves no browser behind: Chromium goes with the DevTools pipe
    await until(async () => browsers.every((proc) => !descendants(1).some((alive) => alive.pid === proc.pid && alive.args === proc.args)), 20_000);
    // the supervisor's restart comes once the lost claims ran out, and the new worker takes them up at start
    await until(async () => (await env.database.db.renderJob.count({ where: { status: 'running', leaseExpiresAt: { gt: new Date() } } })) === 0, 30_000);
    await env.restartWorker();
    await loadContinues(load);
    await load.stop();
    await checkAfterFault(env, account, load, 'worker killed mid-render');
  }, 300_000);

  it('kill -9 of the web process with synchronous requests waiting', async () => {
    const account = await faultAccount(env, '/hooks/web-killed');
    const load = new SteadyLoad(env, account).start();
    // synchronous renders that keep their requests waiting a few seconds
    const slow = { html: '<script>const end = Date.now() + 4000; while (Date.now() < end) {}</script><h1>slow</h1>', javascript: { mode: 'enabled' } };
    const waiting = Array.from({ length: 2 }, (_, n) =>
      env.call('/v1/pdf', { method: 'POST', key: account.apiKey, body: slow, headers: { 'idempotency-key': `waiting-${n}` } }).catch((error: Error) => error),
    );
    await until(async () => (await runningRenders(account)) > 0);
    await env.restartWeb();
    const cut = await Promise.all(waiting);
    expect(cut.filter((answer) => answer instanceof Error).length, 'requests cut by the kill').toBeGreaterThan(0);
    // the cut clients ask again with their keys and get the same jobs, finished
    // (a request the kill cut before its job was recorded is a new admission, which the key's
    // concurrency limit may refuse for a moment: the client waits as told and asks again)
    for (let n = 0; n < 2; n++) {
      const ask = () => env.call('/v1/pdf', { method: 'POST', key: account.apiKey, body: slow, headers: { 'idempotency-key': `waiting-${n}` } });
      let again = await ask();
      for (let tries = 0; again.status === 429 && tries < 60; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 1000 * Number(again.body.error.retry?.retry_after_seconds ?? 1)));
        again = await ask();
      }
      expect([200, 202], again.text).toContain(again.status);
      load.sent.push({ kind: 'pdf', id: again.body.id });
    }
    await loadContinues(load);
    await load.stop();
    await checkAfterFault(env, account, load, 'web process killed with requests waiting');
  }, 300_000);

  it('the S3 store refusing writes for 10 s', async () => {
    const account = await faultAccount(env, '/hooks/storage-refusing');
    const load = new SteadyLoad(env, account).start();
    await until(async () => (await runningRenders(account)) > 0);
    env.refuseStorageWrites(true);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    env.refuseStorageWrites(false);
    await loadContinues(load);
    await load.stop();
    await checkAfterFault(env, account, load, 'storage refusing writes for 10 s');
  }, 300_000);

  it("Chromium's browser process killed", async () => {
    const account = await faultAccount(env, '/hooks/browser-killed');
    const load = new SteadyLoad(env, account).start();
    await until(async () => (await runningRenders(account)) > 0 && browserProcesses(env.worker.child.pid!).length > 0);
    const [browser] = browserProcesses(env.worker.child.pid!);
    process.kill(browser!.pid, 'SIGKILL');
    // the worker starts another browser and goes on rendering
    await until(async () => browserProcesses(env.worker.child.pid!).some((proc) => proc.pid !== browser!.pid), 60_000);
    await loadContinues(load);
    await load.stop();
    expect(env.worker.child.exitCode).toBeNull();
    await checkAfterFault(env, account, load, 'browser process killed');
  }, 300_000);

  it('a render stuck in an infinite loop with script on', async () => {
    const account = await faultAccount(env, '/hooks/infinite-loop');
    const load = new SteadyLoad(env, account).start();
    const stuck = await env.call('/v1/pdf', {
      method: 'POST',
      key: account.apiKey,
      body: { html: '<script>for (;;) {}</script>', javascript: { mode: 'enabled' }, wait: false },
      headers: { 'idempotency-key': 'infinite-loop' },
    });
    expect(stuck.status, stuck.text).toBe(202);
    load.sent.push({ kind: 'pdf', id: stuck.body.id });
    await until(async () => {
      const job = await env.database.db.renderJob.findUniqueOrThrow({ where: { id: stuck.body.id } });
      return job.status !== 'queued' && job.status !== 'running';
    }, 120_000);
    await loadContinues(load);
    await load.stop();
    const job = await env.database.db.renderJob.findUniqueOrThrow({ where: { id: stuck.body.id } });
    expect(job).toMatchObject({ status: 'failed', credit: 'released', attempts: 1 });
    await checkAfterFault(env, account, load, 'render in an infinite loop');
  }, 300_000);

  it('a webhook receiver that hangs, resets connections, then recovers', async () => {
    const account = await faultAccount(env, '/hooks/receiver-faults');
    const load = new SteadyLoad(env, account).start();
    // attempts that ended without an answer: the receiver timed out or dropped the connection
    const attempts = () => env.database.db.webhookAttempt.count({ where: { webhookId: account.webhook.id, failure: { not: null } } });
    env.setReceiverMode('hang');
    await until(async () => (await attempts()) >= 2, 60_000);
    env.setReceiverMode('reset');
    const afterHang = await attempts();
    await until(async () => (await attempts()) >= afterHang + 2, 60_000);
    env.setReceiverMode('answer');
    await loadContinues(load);
    await load.stop();
    await checkAfterFault(env, account, load, 'webhook receiver hangs, resets, recovers');
  }, 300_000);
});
