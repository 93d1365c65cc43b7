// The probe endpoints on a real HTTP server: what each answers, and how /metrics is guarded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../src/metrics/metrics.ts';
import { answerProbe, type ProbeOptions } from '../src/probes/probe-endpoints.ts';

let server: Server | undefined;

const metrics = createMetrics();

async function serve(options: Omit<ProbeOptions, 'metrics'>): Promise<string> {
  server = createServer((req, res) => {
    if (!answerProbe(req, res, { ...options, metrics })) res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

const ready = async () => ({ database: true });

describe('probe endpoints', () => {
  it('answers /healthz without running a check, and leaves every other path to the caller', async () => {
    let checked = 0;
    const base = await serve({ readiness: async () => ({ database: ++checked > 0 }) });
    const health = await fetch(`${base}/healthz`);
    expect([health.status, await health.json(), health.headers.get('cache-control')]).toEqual([200, { status: 'ok' }, 'no-store']);
    expect(checked).toBe(0);
    expect((await fetch(`${base}/healthz/extra`)).status).toBe(418);
    expect((await fetch(`${base}/v1/healthz`)).status).toBe(418);
    expect((await fetch(`${base}/healthz`, { method: 'HEAD' })).status).toBe(200);
    const post = await fetch(`${base}/readyz`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('answers /readyz 200 with every check passing, else 503 naming the failing one', async () => {
    let database = true;
    const base = await serve({ readiness: async () => ({ database, migrations: true }) });
    const up = await fetch(`${base}/readyz`);
    expect([up.status, await up.json()]).toEqual([200, { status: 'ready', checks: { database: true, migrations: true } }]);
    database = false;
    const down = await fetch(`${base}/readyz`);
    expect([down.status, await down.json()]).toEqual([503, { status: 'not_ready', checks: { database: false, migrations: true } }]);
  });

  it('answers /readyz 503 when the checks throw or take longer than 3 s', async () => {
    const failing = await serve({ readiness: async () => Promise.reject(new Error('connection refused')) });
    expect((await fetch(`${failing}/readyz`)).status).toBe(503);
    await new Promise((resolve) => server?.close(resolve));
    const slow = await serve({ readiness: () => new Promise((resolve) => setTimeout(() => resolve({ database: true }), 10_000).unref()) });
    const started = Date.now();
    const answer = await fetch(`${slow}/readyz`);
    expect([answer.status, await answer.json()]).toEqual([503, { status: 'not_ready', checks: { timeout: false } }]);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('answers /metrics 404 unless a token is set, then only to that bearer token', async () => {
    const closed = await serve({ readiness: ready });
    expect((await fetch(`${closed}/metrics`, { headers: { authorization: 'Bearer anything' } })).status).toBe(404);
    await new Promise((resolve) => server?.close(resolve));

    const base = await serve({ readiness: ready, metricsToken: 'scrape-secret' });
    const anonymous = await fetch(`${base}/metrics`);
    expect([anonymous.status, anonymous.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer scrape-secre' } })).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Basic scrape-secret' } })).status).toBe(401);
    const scraped = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer scrape-secret' } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    const text = await scraped.text();
    for (const family of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds', 'svc_renders_total', 'svc_http_requests_total']) {
      expect(text).toMatch(new RegExp(`^# TYPE ${family} `, 'm'));
    }
  });
});
