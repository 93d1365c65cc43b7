// Every metric family moves when its event happens: a service of its own (web and worker, a
// loopback HTTPS webhook receiver) so nothing else moves its counters, scraped before and
// after real renders, a failing render, a webhook delivery, a refused template evaluation and
// a browser crash. Then shutdown: readiness turns false while both processes still serve.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree } from '../packages/renderer/test/support/processes.ts';
import type { ApiResponse } from './support/api.ts';
import { freePort } from './support/global-setup.ts';
import { declares, type Scrape, scrape, total } from './support/metrics.ts';
import { until } from './support/until.ts';
import { startWebhookEnv, type WebhookEnv } from './support/webhook-env.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';
import { makeTestTls } from './support/webhook-tls.ts';

const token = 'metrics-test-token';
let env: WebhookEnv;
let receiver: Receiver;
let workerHealthUrl: string;

beforeAll(async () => {
  const tls = makeTestTls();
  receiver = await startReceiver(tls);
  receiver.respondWith((_request, response) => response.writeHead(200).end());
  const healthPort = await freePort();
  workerHealthUrl = `http://127.0.0.1:${healthPort}`;
  env = await startWebhookEnv({
    allowlist: `localhost:${receiver.port}`,
    caBundlePath: tls.bundlePath,
    env: { SVC_METRICS_TOKEN: token, SVC_WORKER_HEALTH_PORT: String(healthPort), SVC_WORKER_HEALTH_HOST: '127.0.0.1', SVC_SHUTDOWN_DELAY_SECONDS: '3' },
  });
  await until(async () => (await fetch(`${workerHealthUrl}/readyz`)).status === 200, 60_000);
}, 180_000);

afterAll(async () => {
  await env?.stop();
  await receiver?.close();
});

const scrapeWeb = () => scrape(`${env.baseUrl}/metrics`, token);
const scrapeWorker = () => scrape(`${workerHealthUrl}/metrics`, token);
const moved = (before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels);

describe('metrics', () => {
  it('count renders, credits, webhook attempts and template refusals where they happen', async () => {
    const account = await env.newAccount();
    const hook = await env.call('/v1/webhooks', { method: 'POST', key: account.apiKey, body: { url: `https://localhost:${receiver.port}/metrics-hook`, events: ['render.succeeded'] } });
    expect(hook.status).toBe(201);
    const [web, worker] = [await scrapeWeb(), await scrapeWorker()];

    const pdf = await env.call('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>measured</p>' } });
    expect(pdf.body.status).toBe('succeeded');
    const image = await env.call('/v1/image', { method: 'POST', key: account.apiKey, body: { html: '<p>measured</p>', image: { format: 'png' } } });
    expect(image.body.status).toBe('succeeded');
    // a page that loads from an address the egress policy refuses fails its render
    const failing = await env.call('/v1/image', { method: 'POST', key: account.apiKey, body: { html: '<img src="http://127.0.0.1:9/x.png">', image: { format: 'png' } } });
    expect(failing.body.status).toBe('failed');
    const refused = await env.call('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '{% if %}', data: {} } });
    expect(refused.body.error.code).toBe('template_syntax_error');
    await until(async () => receiver.received.filter((request) => request.path === '/metrics-hook').length >= 2, 40_000);

    const workerAfter = await until(async () => {
      const scraped = await scrapeWorker();
      return moved(worker, scraped, 'svc_webhook_attempts_total', { outcome: 'delivered' }) >= 2 ? scraped : null;
    });
    const webAfter = await scrapeWeb();

    expect(moved(worker, workerAfter, 'svc_renders_total', { kind: 'pdf', outcome: 'succeeded', error_category: 'none' })).toBe(1);
    expect(moved(worker, workerAfter, 'svc_renders_total', { kind: 'image', outcome: 'succeeded', error_category: 'none' })).toBe(1);
    expect(moved(worker, workerAfter, 'svc_renders_total', { kind: 'image', outcome: 'failed', error_category: failing.body.error.category })).toBe(1);
    expect(moved(worker, workerAfter, 'svc_render_duration_seconds_count', { kind: 'pdf', outcome: 'succeeded' })).toBe(1);
    expect(moved(worker, workerAfter, 'svc_render_duration_seconds_sum', { kind: 'pdf' })).toBeGreaterThan(0);
    expect(moved(worker, workerAfter, 'svc_render_queue_wait_seconds_count', { kind: 'image' })).toBe(2);
    expect(moved(worker, workerAfter, 'svc_credits_total', { change: 'settled' })).toBe(2);
    expect(moved(worker, workerAfter, 'svc_credits_total', { change: 'released' })).toBe(1);
    expect(moved(worker, workerAfter, 'svc_webhook_attempts_total', { outcome: 'delivered', failure: 'none' })).toBe(2);
    expect(moved(worker, workerAfter, 'svc_webhook_delivery_lag_seconds_count')).toBe(2);

    // admission and template evaluation happen in the web process
    expect(moved(web, webAfter, 'svc_credits_total', { change: 'reserved' })).toBe(3);
    expect(moved(web, webAfter, 'svc_template_evaluation_refusals_total', { reason: 'template_syntax_error' })).toBe(1);
    expect(moved(web, webAfter, 'svc_template_evaluation_seconds_count', { outcome: 'error' })).toBe(1);
    expect(moved(web, webAfter, 'svc_http_requests_total', { route: 'createPdf', method: 'POST', status: '200' })).toBe(1);
    expect(moved(web, webAfter, 'svc_http_requests_total', { route: 'createPdf', method: 'POST', status: '400' })).toBe(1);
    expect(moved(web, webAfter, 'svc_http_requests_total', { route: 'createImage', method: 'POST' })).toBe(2);
  });

  it('count evaluation budget refusals', async () => {
    const account = await env.newAccount();
    const before = await scrapeWeb();
    // templates that run to the sandbox's work limit (about half a second each) spend the
    // account's evaluation budget (five seconds) until it is refused
    const burner = '{% for i in range(100000) %}{% for j in range(100) %}{% endfor %}{% endfor %}';
    let refused = false;
    const deadline = Date.now() + 120_000;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!refused && Date.now() < deadline) {
          const response = await env.call('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: burner, data: {} } });
          if (response.status === 429) refused = true;
          else expect(response.body.error.code).toMatch(/^template_(work_limit|timeout)$/);
        }
      }),
    );
    expect(refused).toBe(true);
    expect(moved(before, await scrapeWeb(), 'svc_template_evaluation_refusals_total', { reason: 'evaluation_budget' })).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it('reads the queue gauges from the database at scrape time', async () => {
    // a job admitted while the worker is paused, its entry then made due in an hour: it stays queued
    const account = await env.newAccount();
    process.kill(env.worker.child.pid!, 'SIGSTOP');
    let queued: Promise<ApiResponse>;
    try {
      queued = env.call('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>waits</p>' } });
      await until(async () => (await env.database.db.renderQueueEntry.count()) === 1);
      await env.database.db.$executeRaw`UPDATE render_queue SET run_at = now() + interval '1 hour'`;
    } finally {
      process.kill(env.worker.child.pid!, 'SIGCONT');
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const waiting = await scrapeWorker();
    expect(total(waiting, 'svc_render_queue_depth', { queue: 'single' })).toBe(1);
    expect(total(waiting, 'svc_render_queue_oldest_age_seconds', { queue: 'single' })).toBeGreaterThanOrEqual(1);
    expect(total(waiting, 'svc_render_queue_depth', { queue: 'bulk' })).toBe(0);
    // the web process reports no queue gauges: the workers answer for the database-wide queues
    expect(declares(await scrapeWeb(), 'svc_render_queue_depth')).toBe(false);

    await env.database.db.$executeRaw`UPDATE render_queue SET run_at = now()`;
    expect((await queued).body.status).toBe('succeeded');
    await until(async () => total(await scrapeWorker(), 'svc_render_queue_depth', { queue: 'single' }) === 0, 10_000);
  });

  it('count a browser crash and the restart that replaces it', async () => {
    const before = await scrapeWorker();
    const browser = chromiumUnder(env.worker.child.pid!);
    expect(browser).not.toBeNull();
    process.kill(browser!, 'SIGKILL');
    const after = await until(async () => {
      const scraped = await scrapeWorker();
      return moved(before, scraped, 'svc_browser_restarts_total', { reason: 'crash' }) === 1 ? scraped : null;
    });
    expect(moved(before, after, 'svc_browser_crashes_total')).toBe(1);
    expect(total(after, 'svc_browser_up')).toBe(1);
    const account = await env.newAccount();
    expect((await env.call('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>after</p>' } })).body.status).toBe('succeeded');
  });

  it('turn readiness false first at shutdown, while both processes still serve', async () => {
    // a render that keeps the worker busy, so its shutdown waits for it
    const account = await env.newAccount();
    const html = '<script>const end = Date.now() + 4000; while (Date.now() < end) {}</script><p>through shutdown</p>';
    const rendering = env.call('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html, javascript: { mode: 'enabled' } } });
    await until(async () => (await env.database.db.renderJob.count({ where: { status: 'running' } })) === 1);

    env.worker.child.kill('SIGTERM');
    env.web.child.kill('SIGTERM');
    for (const base of [workerHealthUrl, env.baseUrl]) {
      const notReady = await until(async () => {
        // another check may fail for a moment on a loaded machine; the one this waits for is accepting
        const answer = await fetch(`${base}/readyz`);
        const body = answer.status === 503 ? await answer.json() : null;
        return body?.checks?.accepting === false ? body : null;
      }, 10_000);
      expect(notReady).toMatchObject({ status: 'not_ready', checks: { accepting: false } });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    }
    // the web still answers requests during its shutdown delay
    expect((await env.call('/v1/openapi.json')).status).toBe(200);
    expect((await rendering).body.status).toBe('succeeded');
    await until(async () => env.worker.child.exitCode !== null && env.web.child.exitCode !== null, 30_000);
    expect([env.worker.child.exitCode, env.web.child.exitCode]).toEqual([0, 0]);
  });
});

/** The browser process the worker started (its own process group), found among the worker's descendants. */
function chromiumUnder(rootPid: number): number | null {
  const readCommand = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return '';
    }
  };
  // the browser itself, not one of its own children (renderer, zygote, GPU processes carry --type=)
  return processTree(rootPid).find((pid) => pid !== rootPid && /chrom/.test(readCommand(pid)) && !/--type=/.test(readCommand(pid))) ?? null;
}
