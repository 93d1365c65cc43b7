// Test support: every test file gets its own database, cloned from one migrated template.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from './client.ts';
import { withDatabase } from './database.ts';

/**
 * Test databases are named per run (svc_test_<run>_...), and a run holds an advisory lock
 * while it lasts, so suites of several checkouts can share one PostgreSQL server: a run
 * drops only its own databases and those of runs that no longer hold their lock.
 * The global setup sets SVC_TEST_RUN before test processes start, so they inherit it.
 */
export function testRun(): string {
  const run = process.env.SVC_TEST_RUN;
  if (!run) throw new Error('SVC_TEST_RUN is not set: test databases are made under the global setup');
  return run;
}

/** A database name of the current run. */
export function testDatabaseName(suffix = randomBytes(6).toString('hex')): string {
  return `svc_test_${testRun()}_${suffix}`;
}

const runPattern = /^svc_test_([0-9a-f]{12})_/;
const lockNamespace = 4711004;

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

async function admin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts a test run: a new run id in SVC_TEST_RUN, held by an advisory lock on a connection
 * that lives until `end`, which drops the run's databases.
 */
export async function startTestRun(serverUrl: string): Promise<{ run: string; end(): Promise<void> }> {
  const run = randomBytes(6).toString('hex');
  process.env.SVC_TEST_RUN = run;
  const holder = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await holder.connect();
  await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [lockNamespace, run]);
  return {
    run,
    end: async () => {
      await dropTestDatabases(serverUrl, (name) => name.startsWith(`svc_test_${run}_`)).catch(() => {});
      await holder.end();
    },
  };
}

/** Drops the databases of runs that ended without cleaning up (their lock is free), and names of no run. */
export async function dropStaleTestDatabases(serverUrl: string): Promise<void> {
  await admin(serverUrl, async (client) => {
    const runs = new Map<string, string[]>();
    for (const datname of await testDatabaseNames(client)) {
      const run = runPattern.exec(datname)?.[1] ?? '';
      runs.set(run, [...(runs.get(run) ?? []), datname]);
    }
    for (const [run, names] of runs) {
      const free = run === '' || (await client.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS free', [lockNamespace, run])).rows[0].free;
      if (!free) continue;
      for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      if (run !== '') await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [lockNamespace, run]);
    }
  });
}

/** The migrated database every test database of the run is cloned from. */
function templateDatabase(): string {
  return testDatabaseName('template');
}

/** Creates the run's empty template database (migrate it before cloning). */
export async function createTemplateDatabase(serverUrl: string): Promise<string> {
  await admin(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(templateDatabase())} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(templateDatabase())}`);
  });
  return withDatabase(serverUrl, templateDatabase());
}

/** Creates a fresh database from the migrated template (CREATE DATABASE ... TEMPLATE is a file copy). */
export async function cloneTemplate(serverUrl: string, name = testDatabaseName()): Promise<string> {
  await admin(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(templateDatabase())}`);
  });
  return withDatabase(serverUrl, name);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await admin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
}

async function testDatabaseNames(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'svc\\_test\\_%'`);
  return rows.map((row) => row.datname);
}

async function dropTestDatabases(serverUrl: string, selected: (name: string) => boolean): Promise<void> {
  await admin(serverUrl, async (client) => {
    for (const datname of (await testDatabaseNames(client)).filter(selected)) {
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  });
}

/** A cloned database with a Prisma client, for one test file. */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const url = await cloneTemplate(serverUrl);
  const db = createDb({ url, poolSize: 12 });
  return {
    url,
    db,
    drop: async () => {
      await db.$disconnect();
      await dropDatabase(serverUrl, new URL(url).pathname.slice(1));
    },
  };
}
