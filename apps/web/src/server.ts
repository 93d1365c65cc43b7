// The web process: a plain Node HTTP server in front of Next.js. It enforces the rules that
// hold before any route runs (request id, header limits, unknown routes, wrong methods), so
// those answers carry the error envelope instead of Node's or Next's own pages, answers the
// operator probes (/healthz, /readyz, /metrics) and /v1 itself with the operations' handlers
// (http/v1-dispatch.ts, the table in http/operation-handlers.ts); Next serves the rest.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ErrorCode, errorBody, operations, RouteTable } from '@svc/contracts';
import { answerProbe, type ProbeOptions } from '@svc/core/probes';
import next from 'next';
import { type Logger, type ServiceMetrics, silentLogger, withLogScope } from '@svc/core';
import { clientAddressHeader, resolveClientAddress } from './http/client-address.ts';
import { countRequest, routeLabel } from './http/request-metrics.ts';
import { dispatchV1, type MatchedRoute } from './http/v1-dispatch.ts';

/** The contract's limits: at most 64 headers and 32 KiB of header names and values. */
export const maxHeaderCount = 64;
export const maxHeaderBytes = 32 * 1024;
/** Node's own parser limit sits far above ours so that our check, with the envelope, answers first. */
const parserHeaderLimit = 1024 * 1024;

const routes = new RouteTable(operations);

function sendError(res: ServerResponse, requestId: string, code: ErrorCode, headers: Record<string, string> = {}) {
  const { status, body } = errorBody(code, requestId);
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-request-id': requestId,
    ...headers,
  });
  res.end(text);
}

function headersTooLarge(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  if (raw.length / 2 > maxHeaderCount) return true;
  let bytes = 0;
  for (const part of raw) bytes += Buffer.byteLength(part);
  return bytes > maxHeaderBytes;
}

/**
 * Answers from the route table alone: 'answered' when it did, the matched /v1 operation for
 * the API, or 'next' for everything else (dashboard, sign-in, GraphQL).
 */
function preflight(req: IncomingMessage, res: ServerResponse, requestId: string): 'answered' | 'next' | MatchedRoute {
  if (headersTooLarge(req)) {
    sendError(res, requestId, 'request_headers_too_large', { connection: 'close' });
    return 'answered';
  }
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path !== '/v1' && !path.startsWith('/v1/')) return 'next';
  const match = routes.match(req.method ?? 'GET', path);
  if (!match) {
    sendError(res, requestId, 'not_found');
    return 'answered';
  }
  const { operation } = match;
  if (!operation) {
    sendError(res, requestId, 'method_not_allowed', { allow: match.allowed.map((method) => method.toUpperCase()).join(', ') });
    return 'answered';
  }
  return { ...match, operation };
}

export interface StartWebOptions {
  port: number;
  hostname?: string;
  /** Reverse proxies in front (SVC_TRUSTED_PROXY_HOPS): whose X-Forwarded-For entries name the client. */
  trustedProxyHops?: number;
  /** What /readyz checks besides shutdown, and the /metrics token; unset: ready whenever not shutting down. */
  probes?: Omit<ProbeOptions, 'metrics'>;
  /** The families requests are counted into and /metrics answers with (the service context's). */
  metrics: ServiceMetrics;
  /** Where a line per answered request and the causes of failed requests go. */
  logger?: Logger;
}

/** One line per request once it is answered or its client went away: what an access log holds. */
function logWhenAnswered(req: IncomingMessage, res: ServerResponse, logger: Logger) {
  const started = performance.now();
  res.once('close', () => {
    // the path only: a query may carry what its sender would not have logged
    const path = (req.url ?? '/').split('?')[0];
    const durationMs = Math.round(performance.now() - started);
    logger.info('request', { method: req.method, path, status: res.statusCode, durationMs, ...(res.writableFinished ? {} : { aborted: true }) });
  });
}

export async function startWebServer({ port, hostname = '0.0.0.0', trustedProxyHops = 0, probes, metrics, logger = silentLogger }: StartWebOptions) {
  const dir = fileURLToPath(new URL('..', import.meta.url));
  const app = next({ dev: false, dir, hostname, port, quiet: true });
  await app.prepare();
  const handleNext = app.getRequestHandler();

  // once shutdown begins, readiness answers 503 at once (a load balancer stops sending new
  // requests) while requests are still served; closing follows
  let shuttingDown = false;
  const probeOptions: ProbeOptions = {
    metricsToken: probes?.metricsToken,
    metrics,
    readiness: async () => (shuttingDown ? { accepting: false } : { accepting: true, ...(await probes?.readiness()) }),
  };
  // while closing, every answer ends its connection, so keep-alive clients do not hold the close up
  let closing = false;
  const unanswered = new Set<ServerResponse>();
  const server = createServer({ maxHeaderSize: parserHeaderLimit }, (req, res) => {
    // the service's id replaces anything the client sent, so it is always a fresh UUID
    const requestId = randomUUID();
    // every line logged while answering, here, in Next or in a use-case, carries the request's id
    withLogScope({ requestId }, () => answer(req, res, requestId));
  });
  const answer = (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    if (closing) res.setHeader('connection', 'close');
    unanswered.add(res);
    logWhenAnswered(req, res, logger);
    res.once('close', () => unanswered.delete(res));
    req.headers['x-request-id'] = requestId;
    // the client address for per-client limits; replaces anything the client sent under that name
    req.headers[clientAddressHeader] = resolveClientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxyHops);
    res.setHeader('x-request-id', requestId);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let route: 'answered' | 'next' | 'probe' | MatchedRoute = 'answered';
    countRequest(metrics, req, res, () => routeLabel(path, route));
    if (answerProbe(req, res, probeOptions)) {
      route = 'probe';
      return;
    }
    route = preflight(req, res, requestId);
    if (route === 'answered') return;
    const answering = route === 'next' ? handleNext(req, res) : dispatchV1(route, req, res);
    answering.catch((error: unknown) => {
      logger.error('request failed', { error: error instanceof Error ? error.stack : String(error) });
      if (!res.headersSent) sendError(res, requestId, 'internal_error');
      else res.destroy();
    });
  };
  // the parser reports an error again for every further chunk of a bad head: answer once
  const answered = new WeakSet<Socket>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    if (!socket.writable) return socket.destroy();
    answered.add(socket);
    const requestId = randomUUID();
    const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'request_headers_too_large' : 'invalid_request';
    const { status, body } = errorBody(code, requestId);
    const text = JSON.stringify(body);
    const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n` +
        `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${text}`,
    );
    // lingering close: the client may still be sending the oversized head; reading and
    // discarding it lets the answer arrive instead of a connection reset
    socket.on('data', () => {});
    socket.resume();
    setTimeout(() => socket.destroy(), 2000).unref();
  });
  // idle keep-alive connections stay open longer than a load balancer's usual 60 s; the
  // header deadline must exceed that, or Node closes an idle connection at 60 s while the
  // client, told 65 s, still sends on it
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(port, hostname, resolve));
  return {
    server,
    /** Readiness answers 503 from now on; requests are still served until close. */
    beginShutdown: () => {
      shuttingDown = true;
    },
    /** Stops accepting connections and resolves once the requests in flight are answered. */
    close: () =>
      new Promise<void>((resolve) => {
        shuttingDown = true;
        closing = true;
        server.close(() => resolve());
        for (const res of unanswered) {
          if (!res.headersSent) res.setHeader('connection', 'close');
          else res.once('finish', () => res.socket?.end());
        }
        server.closeIdleConnections();
      }),
  };
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  // the warning comes before the process reports itself ready
  const { createLogger, loadConfig, reportReady, stopWhenParentGone, warnIfEgressAllowlisted } = await import('@svc/core');
  const logger = createLogger('web');
  // loaded now: a terminal's Ctrl-C also stops tsx's compiler process, so nothing compiles at shutdown
  const { closeServiceContext, serviceContext } = await import('./http/context.ts');
  const { startHeartbeat } = await import('@svc/core');
  const config = loadConfig();
  const { port } = config.web;
  warnIfEgressAllowlisted(config, logger);
  const { databaseReadiness } = await import('@svc/core/probes');
  const { beginShutdown, close } = await startWebServer({
    port,
    hostname: config.web.host,
    trustedProxyHops: config.web.trustedProxyHops,
    probes: { metricsToken: config.metricsToken, readiness: () => databaseReadiness(serviceContext().db) },
    metrics: serviceContext().metrics,
    logger,
  });
  logger.info('web listening', { port });
  const { missingUploadSandbox } = await import('@svc/core');
  const noSandbox = missingUploadSandbox();
  if (noSandbox) logger.error('image and font uploads answer 503 overloaded: this machine has no sandbox to check them in', { reason: noSandbox });
  reportReady();
  // one heartbeat a minute: the public uptime and status read them
  const stopHeartbeat = startHeartbeat(serviceContext(), 'web');
  // the first template request should not pay for starting the sandbox threads
  import('@svc/templating').then((engine) => engine.warmTemplateSandbox()).catch(() => {});
  // in-flight requests finish (a synchronous render waits for its job at most this long)
  const drainMs = config.shutdownDelayMs + config.renderWaitMs + 5_000;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), drainMs).unref();
    // not ready first, still serving: a load balancer that probes in this time stops sending
    beginShutdown();
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    stopHeartbeat();
    await close();
    await closeServiceContext();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('SIGHUP', stop);
  stopWhenParentGone(stop);
}
