// A per-job "proxy" that forwards nothing. Each job's browser context sends all of its traffic
// to this listener, so any connection that slipped past request interception (preconnects,
// link prefetch, WebSocket, popups, WebRTC TURN over TCP) lands here: it is cut at once and
// charged to exactly one job.
import { createServer, type Server } from 'node:net';

/**
 * A loopback address of its own (all of 127/8 is local on Linux), so that the launch-wide host
 * resolver rules can blackhole every name and address except this one.
 */
export const TRIPWIRE_HOST = '127.77.0.1';

export interface Tripwire {
  /** value for BrowserContextOptions.proxyServer */
  proxyServer: string;
  close(): Promise<void>;
}

export async function openTripwire(onConnection: () => void): Promise<Tripwire> {
  const server: Server = createServer((socket) => {
    socket.destroy();
    onConnection();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, TRIPWIRE_HOST, () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('tripwire has no port');
  return {
    proxyServer: `http://${TRIPWIRE_HOST}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
