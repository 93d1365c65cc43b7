// Test support: every test file gets its own database, cloned from one migrated template.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from './client.ts';
import { withDatabase } from './database.ts';

export const templateDatabase = 'svc_test_template';

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

/** Creates the empty template database (migrate it before cloning). */
export async function createTemplateDatabase(serverUrl: string): Promise<string> {
  await admin(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${templateDatabase} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${templateDatabase}`);
  });
  return withDatabase(serverUrl, templateDatabase);
}

/** Creates a fresh database from the migrated template (CREATE DATABASE ... TEMPLATE is a file copy). */
export async function cloneTemplate(serverUrl: string, name = `svc_test_${randomBytes(6).toString('hex')}`): Promise<string> {
  await admin(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(templateDatabase)}`);
  });
  return withDatabase(serverUrl, name);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await admin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
}

/** Drops databases left behind by earlier runs. */
export async function dropTestDatabases(serverUrl: string): Promise<void> {
  await admin(serverUrl, async (client) => {
    const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE 'svc\\_test\\_%'`);
    for (const row of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(row.datname)} WITH (FORCE)`);
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
