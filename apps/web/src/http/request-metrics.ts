// HTTP requests counted by route, never by raw path: a path holds ids, and a label per id
// would grow without bound. /v1 is labelled by operationId, the probes by their name, and
// everything Next serves by what it is.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteMatch } from '@svc/contracts';
import type { ServiceMetrics } from '@svc/core';

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route label of a request: `route` is what the route table made of it ('answered': refused before any route). */
export function routeLabel(path: string, route: 'answered' | 'next' | 'probe' | RouteMatch): string {
  if (route === 'probe') return path.slice(1);
  if (typeof route === 'object') return route.operation?.operationId ?? 'v1_unmatched';
  if (route === 'answered') return path === '/v1' || path.startsWith('/v1/') ? 'v1_unmatched' : 'refused';
  if (path === '/api/graphql') return 'graphql';
  if (path.startsWith('/_next/')) return 'next_assets';
  return 'pages';
}

/** Counts the answer once it is sent, with the label `label()` gives by then. */
export function countRequest(metrics: ServiceMetrics, req: IncomingMessage, res: ServerResponse, label: () => string): void {
  const started = performance.now();
  res.once('finish', () => {
    const method = knownMethods.has(req.method ?? '') ? (req.method as string) : 'other';
    const route = label();
    metrics.httpRequests.inc({ route, method, status: String(res.statusCode) });
    metrics.httpRequestDuration.observe({ route, method }, (performance.now() - started) / 1000);
  });
}
