// /v1 without Next: the route table names the operation, and the operation's handler (the
// table in operation-handlers.ts) answers a Web Request built from the Node request. Next's
// routing, rendering and response machinery cost more CPU per request than a whole render's
// admission, so the web process serves its API itself; Next serves the dashboard, sign-in and
// GraphQL.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Operation, RouteMatch } from '@svc/contracts';
import { handlerOf } from './operation-handlers.ts';

/** A request the route table matched to an operation (its method included). */
export type MatchedRoute = RouteMatch & { operation: Operation };

/** Runs the matched operation's handler and sends its answer; a HEAD request gets the GET answer's head. */
export async function dispatchV1({ operation, params }: MatchedRoute, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const response = await handlerOf(operation).answer(webRequest(req), params);
  if (!req.complete) discardUnreadBody(req);
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (!response.body || req.method === 'HEAD') {
    await response.body?.cancel();
    res.end();
    return;
  }
  // a client that goes away cancels the body (a streamed archive stops reading its files)
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res).catch(() => {});
}

/**
 * A handler that answered without reading the whole body (a refusal by its declared length,
 * say) leaves the rest in the connection, where it stands in the way of the next request on
 * it: the rest is read to nowhere while the answer goes out, and a client still sending after
 * 10 s loses the connection.
 */
function discardUnreadBody(req: IncomingMessage): void {
  readToNowhere(req);
  const timer = setTimeout(() => req.socket?.destroy(), 10_000);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
}

function webRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    body: hasBody ? bodyOf(req) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/**
 * The request body as a web stream that reads only as fast as the handler does. A handler that
 * stops early (a body over its limit) cancels it: the rest is read and dropped rather than the
 * connection cut, so the client receives the answer.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      // after a cancel the stream is closed already, and these have nothing to tell
      req.once('end', () => ignoreClosed(() => controller.close()));
      req.once('error', (error) => ignoreClosed(() => controller.error(error)));
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel() {
      readToNowhere(req);
    },
  });
}

/** Reads the rest of a request body and drops it, so the connection can carry the next request. */
function readToNowhere(req: IncomingMessage): void {
  req.removeAllListeners('data');
  req.resume();
}

function ignoreClosed(step: () => void): void {
  try {
    step();
  } catch {
    // the stream was cancelled
  }
}
