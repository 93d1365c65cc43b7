// What a /v1 handler reads of its request and gives back as its answer, without the Web
// Request and Response: built straight from Node's request and written straight to Node's
// response. A Web Request with a streamed body, its Headers, Response.json and the stream
// pipe of the answer cost the web process about a tenth of its CPU per render.
import type { IncomingMessage } from 'node:http';

/** A request's headers by name, case-insensitive; repeated headers joined as the Fetch standard joins them. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Anything with headers: an ApiRequest or a Web Request. */
export interface WithHeaders {
  readonly headers: HeaderReader;
}

export interface ApiRequest extends WithHeaders {
  readonly method: string;
  /** Absolute, its origin from the Host header. */
  readonly url: string;
  /**
   * The whole body, at most maxBytes; past that, `tooLarge()` is thrown and the rest of the
   * body is read and dropped, so the client receives the answer. Read once: a second call
   * answers the first one's bytes.
   */
  body(maxBytes: number, tooLarge: () => Error): Promise<Buffer>;
}

/** What a handler answers: the status, the headers, and a JSON text or a stream (downloads, archives). */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body?: string | ReadableStream<Uint8Array>;
}

/** The request of a Node request (the web server's /v1 path). */
export function nodeApiRequest(req: IncomingMessage): ApiRequest {
  let read: Promise<Buffer> | undefined;
  return {
    method: req.method ?? 'GET',
    url: `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body(maxBytes, tooLarge) {
      read ??= readBody(req, maxBytes, tooLarge);
      return read;
    },
  };
}

/** The request of a Web Request (a Next route that shares the body limits). */
export function webApiRequest(request: Request): ApiRequest {
  let read: Promise<Buffer> | undefined;
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    body(maxBytes, tooLarge) {
      read ??= readWebBody(request, maxBytes, tooLarge);
      return read;
    },
  };
}

function readBody(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBytes) return void chunks.push(chunk);
      settle();
      readToNowhere(req);
      reject(tooLarge());
    };
    const onEnd = () => {
      settle();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    // a client that goes away mid-body: no end will come
    const onClose = () => onError(new Error('the request closed before its body ended'));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
  });
}

async function readWebBody(request: Request, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Reads the rest of a request body and drops it, so the connection can carry the next request. */
export function readToNowhere(req: IncomingMessage): void {
  req.removeAllListeners('data');
  req.resume();
}
