// A real HTTPS receiver on loopback that records every request it gets, raw body included.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestTls } from './webhook-tls.ts';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
  receivedAt: number;
}

/** Answers a request; the default answers 200 with an empty body. */
export type Responder = (request: ReceivedRequest, response: ServerResponse) => void;

export interface Receiver {
  port: number;
  received: ReceivedRequest[];
  /** Connections accepted, whether or not a request followed. */
  connections: () => number;
  respondWith(responder: Responder): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(tls: TestTls): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  let responder: Responder = (_request, response) => response.writeHead(200).end('ok');
  const server: Server = createServer({ key: tls.serverKey, cert: tls.serverCert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      received.push(entry);
      responder(entry, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    connections: () => connections,
    respondWith: (next) => {
      responder = next;
    },
    waitFor: async (count, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} requests in time`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
