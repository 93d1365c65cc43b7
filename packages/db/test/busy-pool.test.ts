// A transaction that finds every pooled connection held waits for one, as long as a busy
// machine may keep them, instead of failing after Prisma's default 2 s.
import { expect, it } from 'vitest';
import { ownDatabase } from './support/own-database.ts';

// one connection, which the first transaction holds
const database = ownDatabase(1);

it('a transaction waits for the pool rather than failing while another holds its one connection for 4 s', async () => {
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const db = database();
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
