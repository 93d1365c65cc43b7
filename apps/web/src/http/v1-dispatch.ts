// /v1 without Next: the route table names the operation, and the operation's handler (the
// table in operation-handlers.ts) answers a request read straight from Node's (api-request.ts),
// its answer written straight to Node's response. Next's routing, rendering and response
// machinery cost more CPU per request than a whole render's admission, so the web process
// serves its API itself; Next serves the dashboard, sign-in and GraphQL.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Operation, RouteMatch } from '@svc/contracts';
import { nodeApiRequest, readToNowhere } from './api-request.ts';
import { handlerOf } from './operation-handlers.ts';

/** A request the route table matched to an operation (its method included). */
export type MatchedRoute = RouteMatch & { operation: Operation };

/** Runs the matched operation's handler and sends its answer; a HEAD request gets the GET answer's head. */
export async function dispatchV1({ operation, params }: MatchedRoute, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { status, headers, body } = await handlerOf(operation).answer(nodeApiRequest(req), params);
  if (!req.complete) discardUnreadBody(req);
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (body === undefined || req.method === 'HEAD') {
    if (typeof body === 'object') await body.cancel();
    res.end();
    return;
  }
  if (typeof body === 'string') {
    res.setHeader('content-length', Buffer.byteLength(body));
    res.end(body);
    return;
  }
  // a client that goes away cancels the body (a streamed archive stops reading its files)
  await pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream), res).catch(() => {});
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
