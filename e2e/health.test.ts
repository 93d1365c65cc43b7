// Health and readiness of the processes the global setup started, as a load balancer or a
// Kubernetes probe sees them: outside /v1, outside the published contract, no key needed.
import { describe, expect, inject, it } from 'vitest';
import { api, baseUrl } from './support/api.ts';
import { declares, scrape, total } from './support/metrics.ts';
import { until } from './support/until.ts';

const workerHealthUrl = () => inject('workerHealthUrl');
const token = () => inject('metricsToken');

async function probe(url: string) {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

describe('web process probes', () => {
  it('answers /healthz and /readyz with the database reachable and every migration applied', async () => {
    expect(await probe(`${baseUrl()}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await probe(`${baseUrl()}/readyz`)).toEqual({ status: 200, body: { status: 'ready', checks: { accepting: true, database: true, migrations: true } } });
  });

  it('keeps the probes out of the API contract', async () => {
    const document = (await api('/v1/openapi.json')).body as { paths: Record<string, unknown> };
    const paths = Object.keys(document.paths);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((path) => /healthz|readyz|metrics/.test(path))).toEqual([]);
    expect((await api('/v1/healthz')).status).toBe(404);
  });

  it('answers /metrics only to the bearer token, and counts requests by operation, never by path', async () => {
    expect((await fetch(`${baseUrl()}/metrics`)).status).toBe(401);
    expect((await fetch(`${baseUrl()}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const before = await scrape(`${baseUrl()}/metrics`, token());
    const missing = await api('/v1/pdf/pdf_doesnotexist', { key: 'svc_sk_v1_invalid' });
    expect(missing.status).toBe(401);
    expect((await api('/v1/no-such-operation/pdf_doesnotexist')).status).toBe(404);
    const after = await scrape(`${baseUrl()}/metrics`, token());
    const unmatched = { route: 'v1_unmatched', method: 'GET', status: '404' };
    // other test files share this web process: their requests may add to the same labels
    expect(total(after, 'svc_http_requests_total', unmatched)).toBeGreaterThanOrEqual(total(before, 'svc_http_requests_total', unmatched) + 1);
    const labels = { route: 'getPdf', method: 'GET', status: '401' };
    expect(total(after, 'svc_http_requests_total', labels)).toBeGreaterThanOrEqual(total(before, 'svc_http_requests_total', labels) + 1);
    expect(total(after, 'svc_http_request_duration_seconds_count', { route: 'getPdf', method: 'GET' })).toBeGreaterThan(0);
    expect(after.text).not.toContain('pdf_doesnotexist');
    expect(after.text).not.toContain('no-such-operation');
    for (const family of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) expect(declares(after, family)).toBe(true);
  });
});

describe('worker probes on its health port', () => {
  it('is ready with the browser launched and the render queue listener connected', async () => {
    expect(await probe(`${workerHealthUrl()}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    const ready = await until(async () => {
      const answer = await probe(`${workerHealthUrl()}/readyz`);
      return answer.status === 200 ? answer : null;
    }, 60_000);
    expect(ready.body).toEqual({ status: 'ready', checks: { accepting: true, database: true, migrations: true, browser: true, queue_listener: true, task_queue_listener: true } });
    expect((await fetch(`${workerHealthUrl()}/v1/openapi.json`)).status).toBe(404);
  });

  it('answers /metrics only to the bearer token, with the pool and queue gauges', async () => {
    expect((await fetch(`${workerHealthUrl()}/metrics`)).status).toBe(401);
    const scraped = await scrape(`${workerHealthUrl()}/metrics`, token());
    expect(total(scraped, 'svc_browser_up')).toBe(1);
    expect(total(scraped, 'svc_browser_slots')).toBeGreaterThan(0);
    for (const queue of ['single', 'bulk']) expect(scraped.samples.some((sample) => sample.name === 'svc_render_queue_depth' && sample.labels.queue === queue)).toBe(true);
    for (const family of ['svc_task_queue_depth', 'svc_browser_restarts_total', 'svc_browser_crashes_total', 'process_resident_memory_bytes']) expect(declares(scraped, family)).toBe(true);
  });
});
