// A transaction that finds every pooled connection held waits for one, as long as a busy
// machine may keep them, instead of failing after Prisma's default 2 s.
import { createDb, type Db } from '@svc/db';
import { cloneTemplate, dropDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';

let url: string;
let db: Db;

beforeAll(async () => {
  url = await cloneTemplate(inject('dbServerUrl'));
  db = createDb({ url, poolSize: 1 });
});

afterAll(async () => {
  await db.$disconnect();
  await dropDatabase(inject('dbServerUrl'), new URL(url).pathname.slice(1));
});

it('a transaction waits for the pool rather than failing while another holds its one connection for 4 s', async () => {
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const first = db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1`;
    holding();
    await tx.$executeRaw`SELECT pg_sleep(4)`;
    return 'first';
  });
  await held;
  const second = db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT 2::int AS n`;
    return row!.n;
  });
  expect(await Promise.all([first, second])).toEqual(['first', 2]);
}, 60_000);
