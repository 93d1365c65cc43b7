// A statement a process runs often is prepared under a name on each connection, so PostgreSQL
// parses it once; statements run once or twice stay unnamed, and the names are bounded.
import { describe, expect, it } from 'vitest';
import { ownDatabase } from './support/own-database.ts';

// one connection: what one statement leaves prepared is seen by the next
const database = ownDatabase(1);

async function preparedLike(marker: string): Promise<number> {
  const rows = await database().$queryRawUnsafe<{ count: bigint }[]>(`SELECT count(*) AS count FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%' AND statement NOT LIKE '%pg_prepared_statements%'`, marker);
  return Number(rows[0]?.count ?? 0);
}

describe('prepared statements', () => {
  it('prepares a statement from its third run on and answers it the same', async () => {
    const run = (value: number) => database().$queryRawUnsafe<{ doubled: number }[]>(`SELECT $1::int * 2 AS doubled /* often-run */`, value);
    expect(await run(1)).toEqual([{ doubled: 2 }]);
    expect(await run(2)).toEqual([{ doubled: 4 }]);
    expect(await preparedLike('often-run')).toBe(0);
    expect(await run(3)).toEqual([{ doubled: 6 }]);
    expect(await preparedLike('often-run')).toBe(1);
    expect(await run(4)).toEqual([{ doubled: 8 }]);
    expect(await preparedLike('often-run')).toBe(1);
  });

  it('keeps at most 256 statements prepared, however many distinct ones run often', async () => {
    for (let index = 0; index < 300; index++) {
      for (let times = 0; times < 3; times++) await database().$queryRawUnsafe(`SELECT $1::int AS value /* many-${index} */`, times);
    }
    const prepared = await database().$queryRawUnsafe<{ count: bigint }[]>(`SELECT count(*) AS count FROM pg_prepared_statements`);
    expect(Number(prepared[0]?.count)).toBeLessThanOrEqual(256);
    expect(await preparedLike('many-')).toBeGreaterThan(200);
    // past the bound a statement still runs, unnamed
    expect(await database().$queryRawUnsafe(`SELECT $1::int AS value /* many-299 */`, 7)).toEqual([{ value: 7 }]);
  });
});
