// Which failures are PostgreSQL aborting a transaction to break a deadlock or a serialization
// conflict (the request may simply be sent again): real errors from the server, raised through
// the Prisma client and node-postgres, and a statement error that is no such failure.
import { type Db, isTransientConflict, Prisma, queryRows } from '@svc/db';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase(inject('dbServerUrl'));
  db = database.db;
});

afterAll(() => database?.drop());

const raising = (state: string) => `DO $$ BEGIN RAISE EXCEPTION 'raised' USING ERRCODE = '${state}'; END $$`;

describe('isTransientConflict', () => {
  it('holds for a deadlock and a serialization failure, through Prisma and through the driver', async () => {
    for (const state of ['40P01', '40001']) {
      const viaPrisma = await db.$executeRawUnsafe(raising(state)).catch((caught: unknown) => caught);
      expect(viaPrisma).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
      expect(isTransientConflict(viaPrisma)).toBe(true);
      const viaDriver = await queryRows(db, Prisma.raw(raising(state))).catch((caught: unknown) => caught);
      expect(isTransientConflict(viaDriver)).toBe(true);
    }
  });

  it('does not hold for other statement errors', async () => {
    const unique = await db.$executeRawUnsafe(raising('23505')).catch((caught: unknown) => caught);
    expect(isTransientConflict(unique)).toBe(false);
    expect(isTransientConflict(new Error('boom'))).toBe(false);
    expect(isTransientConflict(null)).toBe(false);
  });
});
