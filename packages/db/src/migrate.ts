import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const migrationsDir = fileURLToPath(new URL('../../../prisma/migrations', import.meta.url));
const migrationsTable = '_svc_migrations';
// Any constant works: it only has to be the same for every process migrating this database.
const migrationLockKey = 4_711_002;

export interface MigrationResult {
  applied: string[];
}

/**
 * Applies the SQL migrations under prisma/migrations in name order, each in its own
 * transaction, then the job queue's own schema. Safe to run from several processes at
 * once (an advisory lock serialises them) and a no-op when everything is applied.
 * A migration whose file changed after it was applied stops the run.
 */
export async function migrate(url: string): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${migrationsTable} (name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Map<string, string>(
      (await client.query(`SELECT name, checksum FROM ${migrationsTable}`)).rows.map((row) => [row.name, row.checksum]),
    );
    for (const migration of await listMigrations()) {
      const previous = done.get(migration.name);
      if (previous !== undefined) {
        if (previous !== migration.checksum) {
          throw new Error(`migration ${migration.name} changed after it was applied; add a new migration instead`);
        }
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${migrationsTable} (name, checksum) VALUES ($1, $2)`, [migration.name, migration.checksum]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
      }
      applied.push(migration.name);
    }
    // loaded here: a process that only checks for pending migrations never holds the library
    const { Logger, runMigrations: runWorkerMigrations } = await import('graphile-worker');
    // graphile-worker logs each step of its own migrations; the service reports its own summary
    await runWorkerMigrations({ connectionString: url, logger: new Logger(() => () => {}) });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]).catch(() => {});
    await client.end();
  }
  return { applied };
}

/**
 * Migration files not recorded as applied in the database (empty: the schema is current). The
 * files cannot change under a running process, so their names are read once; a database without
 * the migrations table throws, like one that cannot be reached.
 */
export async function pendingMigrations(db: { $queryRawUnsafe<T>(query: string): Promise<T> }): Promise<string[]> {
  migrationNames ??= readdir(migrationsDir, { withFileTypes: true }).then((entries) => entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
  const [names, applied] = await Promise.all([migrationNames, db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM ${migrationsTable}`)]);
  const recorded = new Set(applied.map((row) => row.name));
  return names.filter((name) => !recorded.has(name)).sort();
}

let migrationNames: Promise<string[]> | undefined;

async function listMigrations() {
  const names = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(migrationsDir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}
