import pg from 'pg';
import { startEmbeddedCluster } from './embedded-cluster.ts';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  /** The embedded server's process id, when this handle started it (it stops with `stop`). */
  serverPid?: number;
  stop(): Promise<void>;
}

export interface ResolveDatabaseOptions {
  /** DATABASE_URL; when set, that server is used and nothing is started. */
  url?: string;
  /** SVC_DATA_DIR; the embedded cluster is its pg/ folder (as root, where that folder links to). */
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

  const port = options.port ?? 54329;
  const database = options.database ?? 'svc';
  const serverUrl = `postgres://${embeddedUser}:${embeddedPassword}@127.0.0.1:${port}`;
  // another process of the service (npm start, the CLI) may already run the cluster
  if (await canConnect(`${serverUrl}/postgres`)) {
    await ensureDatabase(`${serverUrl}/postgres`, database);
    return { url: `${serverUrl}/${database}`, embedded: true, stop: async () => {} };
  }
  const cluster = await startEmbeddedCluster({
    dataDir: options.dataDir,
    port,
    user: embeddedUser,
    password: embeddedPassword,
    log: options.log ?? (() => {}),
  });
  try {
    await ensureDatabase(`${serverUrl}/postgres`, database);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return { url: `${serverUrl}/${database}`, embedded: true, serverPid: cluster.pid, stop: () => cluster.stop() };
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
