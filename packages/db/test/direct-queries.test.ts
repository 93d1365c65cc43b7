// The render path's statements run straight through the driver on the Db's own pool: rows in
// the driver's types, transactions that commit or roll back as a whole, and a first statement
// sent with BEGIN whose values are quoted, whatever they hold.
import { createDb, type Db, inTransaction, Prisma, queryRows } from '@svc/db';
import { cloneTemplate, dropDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

let url: string;
let db: Db;

beforeAll(async () => {
  url = await cloneTemplate(inject('dbServerUrl'));
  db = createDb({ url, poolSize: 2 });
  await db.$executeRawUnsafe('CREATE TABLE direct_notes (id text PRIMARY KEY, body text NOT NULL, at timestamptz NOT NULL)');
});

afterAll(async () => {
  await db.$disconnect();
  await dropDatabase(inject('dbServerUrl'), new URL(url).pathname.slice(1));
});

const notes = () => queryRows<{ id: string }>(db, Prisma.sql`SELECT id FROM direct_notes ORDER BY id`);

describe('statements through the driver', () => {
  it('answers rows in the driver types: int4 as numbers, timestamptz as dates, json parsed', async () => {
    const at = new Date('2026-11-27T10:00:00.123Z');
    const [row] = await queryRows<{ n: number; at: Date; doc: unknown }>(db, Prisma.sql`SELECT ${41}::int + 1 AS n, ${at}::timestamptz AS at, ${JSON.stringify({ a: [1] })}::jsonb AS doc`);
    expect(row).toEqual({ n: 42, at, doc: { a: [1] } });
  });

  it('commits a transaction whole, and rolls it back whole when its work throws', async () => {
    await inTransaction(db, async (run) => {
      await run(Prisma.sql`INSERT INTO direct_notes VALUES ('kept-1', 'one', now())`);
      await run(Prisma.sql`INSERT INTO direct_notes VALUES ('kept-2', 'two', now())`);
    });
    await expect(
      inTransaction(db, async (run) => {
        await run(Prisma.sql`INSERT INTO direct_notes VALUES ('lost', 'three', now())`);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await notes()).toEqual([{ id: 'kept-1' }, { id: 'kept-2' }]);
    // the connection went back to the pool usable
    expect(await queryRows(db, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });

  it("sends a first statement with BEGIN, its string values quoted: a quote in one is text, not SQL", async () => {
    const hostile = "x'; DROP TABLE direct_notes; --";
    const seen = await inTransaction(db, (run) => run<{ id: string }>(Prisma.sql`SELECT id FROM direct_notes WHERE id = 'kept-1'`), Prisma.sql`SELECT id FROM direct_notes WHERE body = ${hostile} FOR UPDATE`);
    expect(seen).toEqual([{ id: 'kept-1' }]);
    expect(await notes()).toEqual([{ id: 'kept-1' }, { id: 'kept-2' }]);
    await expect(inTransaction(db, async () => 1, Prisma.sql`SELECT ${1}::int`)).rejects.toThrow(/only string values/);
  });

  it('fails a transaction whose connection is cut (the server restarted), and the pool goes on with a new one', async () => {
    await expect(
      inTransaction(db, async (run) => {
        const [own] = await run<{ pid: number }>(Prisma.sql`SELECT pg_backend_pid() AS pid`);
        await queryRows(db, Prisma.sql`SELECT pg_terminate_backend(${own?.pid}::int)`);
        await run(Prisma.sql`INSERT INTO direct_notes VALUES ('after-cut', 'four', now())`);
      }),
    ).rejects.toThrow();
    expect(await notes()).toEqual([{ id: 'kept-1' }, { id: 'kept-2' }]);
    expect(await queryRows(db, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });
});
