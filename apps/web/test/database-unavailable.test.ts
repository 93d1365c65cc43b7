// Which failures read as the database being unavailable (answered 503 overloaded on routes
// that may answer it): real errors from the Prisma client and node-postgres against a port
// nothing listens on, and a statement error that is no such failure.
import { connect, createServer } from 'node:net';
import { createDb, isDatabaseUnavailable, Prisma } from '@svc/db';
import { describe, expect, it } from 'vitest';

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('isDatabaseUnavailable', () => {
  it('holds for a Prisma query against a server that is not there', async () => {
    const db = createDb({ url: `postgres://postgres:x@127.0.0.1:${await closedPort()}/svc`, poolSize: 1 });
    const error = await db.renderJob.count().catch((caught: unknown) => caught);
    await db.$disconnect();
    expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('holds for a connection refused and a server shutting down', async () => {
    const port = await closedPort();
    const error = await new Promise((resolve) => connect(port, '127.0.0.1').once('error', resolve));
    expect(isDatabaseUnavailable(error)).toBe(true);
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });
    expect(isDatabaseUnavailable(shutdown)).toBe(true);
  });

  it('does not hold for a statement the server refused, nor for other errors', () => {
    const unique = new Prisma.PrismaClientKnownRequestError('Unique constraint failed', { code: 'P2002', clientVersion: '7' });
    expect(isDatabaseUnavailable(unique)).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable('text')).toBe(false);
  });
});
