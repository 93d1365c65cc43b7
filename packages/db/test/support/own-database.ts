// A database of the test file's own, cloned from the migrated template before its tests and
// dropped after them, with a Db of the given pool size.
import { createDb, type Db } from '@svc/db';
import { cloneTemplate, dropDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, inject } from 'vitest';

/** Registers the file's set-up and tear-down; the answer gives the Db once the set-up has run. */
export function ownDatabase(poolSize: number): () => Db {
  let url: string;
  let db: Db | undefined;
  beforeAll(async () => {
    url = await cloneTemplate(inject('dbServerUrl'));
    db = createDb({ url, poolSize });
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dropDatabase(inject('dbServerUrl'), new URL(url).pathname.slice(1));
  });
  return () => db!;
}
