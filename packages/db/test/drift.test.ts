// schema.prisma is the source of truth; the database is built only from the hand-written SQL
// in prisma/migrations. This test migrates a fresh database and fails on any difference
// between the two (tables, columns, types, nullability, defaults, enums, keys, indexes,
// foreign keys and their names). CHECK constraints, _svc_migrations and the graphile_worker
// schema are not part of the model and are ignored.
import { readFile } from 'node:fs/promises';
import { migrate, withDatabase } from '@svc/db/admin';
import { testDatabaseName } from '@svc/db/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { schemaDrift } from './support/catalog.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbServerUrl: string;
  }
}

const schemaFile = new URL('../../../prisma/schema.prisma', import.meta.url);

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('dbServerUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const created: string[] = [];

/** A new, empty database migrated by the project's own runner. */
async function migratedDatabase(): Promise<string> {
  const name = testDatabaseName();
  await onServer((client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  created.push(name);
  const url = withDatabase(inject('dbServerUrl'), name);
  await migrate(url);
  return url;
}

async function execute(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const report = (drift: readonly string[]) =>
  `schema.prisma and prisma/migrations disagree (fix with a new migration, or fix the schema):\n  - ${drift.join('\n  - ')}\n`;

describe('schema drift', () => {
  let schemaText = '';
  let pristineUrl = '';

  beforeAll(async () => {
    schemaText = await readFile(schemaFile, 'utf8');
    pristineUrl = await migratedDatabase();
  });

  afterAll(async () => {
    await onServer(async (client) => {
      for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    });
  });

  it('the migrations build exactly the database schema.prisma describes', async () => {
    const drift = await schemaDrift({ url: pristineUrl, schemaText });
    expect(drift, report(drift)).toEqual([]);
  });

  it('reports changes made to the database outside schema.prisma', async () => {
    const url = await migratedDatabase();
    await execute(
      url,
      `ALTER TABLE api_keys ALTER COLUMN name DROP NOT NULL;
       CREATE INDEX extra_idx ON credit_ledger (kind, created_at DESC);
       ALTER TABLE accounts ALTER COLUMN is_demo SET DEFAULT true;
       ALTER TABLE accounts ALTER COLUMN plan TYPE text;
       ALTER TYPE "LedgerKind" ADD VALUE 'refund';
       ALTER TABLE overage_usage DROP CONSTRAINT overage_usage_account_id_fkey;
       ALTER TABLE overage_usage ADD CONSTRAINT overage_usage_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE RESTRICT ON UPDATE CASCADE;
       ALTER INDEX credit_reservations_account_id_state_idx RENAME TO credit_reservations_by_state;
       CREATE TABLE notes (id text PRIMARY KEY);`,
    );
    const drift = await schemaDrift({ url, schemaText });
    expect(drift).toEqual(
      expect.arrayContaining([
        'column api_keys.name: nullable in database, NOT NULL in schema',
        'index credit_ledger.extra_idx: in database non-unique (kind, created_at DESC), not in schema',
        'column accounts.is_demo: default true in database, false in schema',
        'column accounts.plan: type text in database, Plan in schema',
        'enum LedgerKind: values (grant, reset, reserve, settle, release, refund) in database, (grant, reset, reserve, settle, release) in schema',
        'foreign key overage_usage.overage_usage_account_id_fkey: (account_id) references accounts(id) on delete RESTRICT on update CASCADE in database, (account_id) references accounts(id) on delete CASCADE on update CASCADE in schema',
        'index credit_reservations non-unique (account_id, state): named credit_reservations_by_state in database, credit_reservations_account_id_state_idx in schema',
        'table notes: in database (id), not in schema',
      ]),
    );
    expect(drift).toHaveLength(8);
  });

  it('reports changes made to schema.prisma without a migration', async () => {
    const edited = schemaText
      .replace('  suspendedAt ', '  nickname String?\n  suspendedAt ')
      .replace('  @@index([accountId, state])', '  @@index([accountId, state(sort: Desc)])')
      .replace('  balance   Int          @default(0)', '  balance   BigInt       @default(1)')
      .replace('enum Plan {\n', 'enum Plan {\n  enterprise\n')
      .replace('model CreditPeriodReset {', 'model Note {\n  id String @id\n  @@map("notes")\n}\n\nmodel CreditPeriodReset {');
    expect(edited).not.toBe(schemaText);
    const drift = await schemaDrift({ url: pristineUrl, schemaText: edited });
    expect(drift).toEqual(
      expect.arrayContaining([
        'column accounts.nickname: in schema (Account.nickname), missing from database',
        'index credit_reservations.credit_reservations_account_id_state_idx: non-unique (account_id, state) in database, non-unique (account_id, state DESC) in schema',
        'column credit_balances.balance: type integer in database, bigint in schema',
        'column credit_balances.balance: default 0 in database, 1 in schema',
        'enum Plan: values (scale, growth, starter, pack, free) in database, (enterprise, scale, growth, starter, pack, free) in schema',
        'table notes: in schema (model Note), missing from database',
      ]),
    );
    expect(drift).toHaveLength(6);
  });
});
