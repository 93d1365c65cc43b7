import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerProbe, type ProbeOptions } from './probe-endpoints.ts';

/**
 * A small HTTP server with the probes alone (a process with no web server of its own: the
 * worker). Every other path answers 404. Resolves with the port it listens on (port 0 picks one).
 */
export async function startHealthServer(options: ProbeOptions & { port: number; host: string }): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (answerProbe(req, res, options)) return;
    res.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ status: 'not_found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
