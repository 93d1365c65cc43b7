// The render path's statements run straight through the driver on the Db's own pool: rows in
// the driver's types, and two statements as one transaction in one round trip, which commits
// or rolls back as a whole, holds the first one's lock while the second reads, and leaves the
// connection usable whatever failed.
import { commitWithoutFlush, createDb, type Db, Prisma, queryAfter, queryRows } from '@svc/db';
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
const insert = (id: string, body = 'note') => Prisma.sql`INSERT INTO direct_notes VALUES (${id}, ${body}, now()) RETURNING id, body`;

describe('statements through the driver', () => {
  it('answers rows in the driver types: int4 as numbers, timestamptz as dates, json parsed', async () => {
    const at = new Date('2026-11-27T10:00:00.123Z');
    const [row] = await queryRows<{ n: number; at: Date; doc: unknown }>(db, Prisma.sql`SELECT ${41}::int + 1 AS n, ${at}::timestamptz AS at, ${JSON.stringify({ a: [1] })}::jsonb AS doc`);
    expect(row).toEqual({ n: 42, at, doc: { a: [1] } });
  });

  it("commits two statements together and answers the second's rows, its values as parameters whatever they hold", async () => {
    const hostile = "x'; DROP TABLE direct_notes; --";
    expect(await queryAfter(db, insert('kept-1'), insert('kept-2', hostile))).toEqual([{ id: 'kept-2', body: hostile }]);
    expect(await notes()).toEqual([{ id: 'kept-1' }, { id: 'kept-2' }]);
  });

  it('rolls both back when either fails, and the connection goes on', async () => {
    // the second fails (a duplicate key): the first's row goes too
    await expect(queryAfter(db, insert('lost-1'), insert('kept-1'))).rejects.toThrow(/duplicate key/);
    // the first fails: the second never runs
    await expect(queryAfter(db, insert('kept-2'), insert('lost-2'))).rejects.toThrow(/duplicate key/);
    // a second statement that does not parse
    await expect(queryAfter(db, insert('lost-3'), Prisma.sql`SELEKT 1`)).rejects.toThrow(/syntax error/);
    expect(await notes()).toEqual([{ id: 'kept-1' }, { id: 'kept-2' }]);
    for (let round = 0; round < 3; round++) expect(await queryRows(db, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });

  it('runs the same pair many times: both statements prepared once per connection, whatever failed between', async () => {
    const lock = (round: number) => Prisma.sql`SELECT ${`lock-${round}`}::text AS lock`;
    const prepared = Prisma.sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = ${lock(0).text}`;
    for (let round = 0; round < 8; round++) {
      const [row] = await queryAfter<{ n: number }>(db, lock(round), Prisma.sql`SELECT ${round}::int * 2 AS n`);
      expect(row).toEqual({ n: round * 2 });
      // a failure discards its connection, and what it had prepared: the next pair prepares again
      if (round === 4) await expect(queryAfter(db, lock(round), Prisma.sql`SELECT 1 / ${0}::int`)).rejects.toThrow(/division by zero/);
    }
    for (let round = 0; round < 4; round++) expect(await queryAfter(db, lock(round), prepared)).toEqual([{ n: 1 }]);
  });

  it("holds the first statement's lock while the second reads, with a snapshot taken after the lock", async () => {
    // each counts the rows so far and inserts the next; serialised by the lock, both see the
    // other's commit or neither runs before the other, so the two numbers differ
    const next = (pause: number) =>
      queryAfter<{ id: string }>(
        db,
        Prisma.sql`SELECT id FROM direct_notes WHERE id = 'kept-1' FOR NO KEY UPDATE`,
        Prisma.sql`INSERT INTO direct_notes SELECT 'seq-' || count(*), 'seq', now() FROM direct_notes, pg_sleep(${pause}::float8) WHERE id LIKE 'seq-%' RETURNING id`,
      );
    const both = await Promise.all([next(0.3), next(0)]);
    expect(both.map(([row]) => row?.id).sort()).toEqual(['seq-0', 'seq-1']);
  });

  it('commits without a flush for the transaction of the statement that asks, and for no other', async () => {
    const [inside] = await queryAfter<{ mode: string }>(db, Prisma.sql`SELECT ${commitWithoutFlush} AS unflushed`, Prisma.sql`SELECT current_setting('synchronous_commit') AS mode`);
    expect(inside).toEqual({ mode: 'off' });
    const [alone] = await queryRows<{ mode: string }>(db, Prisma.sql`SELECT current_setting('synchronous_commit') AS mode FROM (SELECT ${commitWithoutFlush} AS unflushed OFFSET 0) asked`);
    expect(alone).toEqual({ mode: 'off' });
    for (let round = 0; round < 2; round++) expect(await queryRows(db, Prisma.sql`SELECT current_setting('synchronous_commit') AS mode`)).toEqual([{ mode: 'on' }]);
  });

  it('fails when its connection is cut (the server restarted), and the pool goes on with a new one', async () => {
    await expect(queryAfter(db, Prisma.sql`SELECT pg_terminate_backend(pg_backend_pid())`, insert('after-cut'))).rejects.toThrow();
    expect((await notes()).map((note) => note.id)).not.toContain('after-cut');
    expect(await queryRows(db, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });
});
