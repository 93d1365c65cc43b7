// The operator endpoints both processes answer outside /v1 and outside the API contract:
// GET /healthz (the process is alive: no database, no work), GET /readyz (it can serve: every
// readiness check passes) and GET /metrics (Prometheus text, guarded by SVC_METRICS_TOKEN).
// docs/observability.md describes them for load balancers and Kubernetes probes.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { withDeadline } from '@svc/deadline';
import type { ServiceMetrics } from '../ports/metrics.ts';

/** Named checks; each says whether its part is ready. A check that throws is not ready. */
export type ReadinessChecks = () => Promise<Record<string, boolean>>;

export interface ProbeOptions {
  readiness: ReadinessChecks;
  /** Unset: /metrics answers 404, as if there were no such path. */
  metricsToken?: string;
  /** What /metrics answers with: the process's families (the service context's). */
  metrics: ServiceMetrics;
}

export const probePaths = ['/healthz', '/readyz', '/metrics'] as const;

/** A probe that takes longer than this answers not ready: a load balancer's own timeout is often 5 s. */
const readinessTimeoutMs = 3_000;

/** Answers the request when its path is one of the probes; false for any other path. */
export function answerProbe(req: IncomingMessage, res: ServerResponse, options: ProbeOptions): boolean {
  const path = (req.url ?? '/').split('?')[0];
  if (!probePaths.includes(path as (typeof probePaths)[number])) return false;
  if (path === '/metrics' && !options.metricsToken) {
    send(res, 404, { status: 'not_found' });
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, { status: 'method_not_allowed' }, { allow: 'GET, HEAD' });
    return true;
  }
  const answering = path === '/healthz' ? Promise.resolve(send(res, 200, { status: 'ok' })) : path === '/readyz' ? answerReadiness(res, options.readiness) : answerMetrics(req, res, options.metricsToken as string, options.metrics);
  answering.catch(() => {
    if (!res.headersSent) send(res, 500, { status: 'error' });
    else res.destroy();
  });
  return true;
}

async function answerReadiness(res: ServerResponse, readiness: ReadinessChecks): Promise<void> {
  const checks = await withDeadline(readiness().catch(() => ({ checks: false })), readinessTimeoutMs, () => null);
  if (!checks) return send(res, 503, { status: 'not_ready', checks: { timeout: false } });
  const ready = Object.values(checks).every(Boolean);
  send(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks });
}

async function answerMetrics(req: IncomingMessage, res: ServerResponse, token: string, metrics: ServiceMetrics): Promise<void> {
  if (!bearerMatches(req.headers.authorization, token)) return send(res, 401, { status: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
  const text = await metrics.registry.metrics();
  res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Compared as digests, so the comparison takes the same time whatever the header holds. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
