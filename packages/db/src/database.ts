import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { socketDirOf, startEmbeddedCluster } from './embedded-cluster.ts';

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
  const tcpUrl = serverUrl('127.0.0.1', port);
  // another process of the service (npm start, the CLI) may already run the cluster
  if (await canConnect(`${tcpUrl}/postgres`)) {
    const socketUrl = runningSocketUrl(options.dataDir, port);
    const url = socketUrl && (await canConnect(`${socketUrl}/postgres`)) ? socketUrl : tcpUrl;
    await ensureDatabase(`${url}/postgres`, database);
    return { url: `${url}/${database}`, embedded: true, stop: async () => {} };
  }
  const cluster = await startEmbeddedCluster({
    dataDir: options.dataDir,
    port,
    user: embeddedUser,
    password: embeddedPassword,
    log: options.log ?? (() => {}),
  });
  const url = cluster.socketDir ? serverUrl(cluster.socketDir, port) : tcpUrl;
  try {
    await ensureDatabase(`${url}/postgres`, database);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return { url: `${url}/${database}`, embedded: true, serverPid: cluster.pid, stop: () => cluster.stop() };
}

/**
 * The embedded server's address without a database: a socket directory (an absolute path,
 * percent-encoded in the host, as node-postgres and libpq read it) or a TCP host.
 */
function serverUrl(host: string, port: number): string {
  return `postgres://${embeddedUser}:${embeddedPassword}@${host.startsWith('/') ? encodeURIComponent(host) : host}:${port}`;
}

/** The socket URL a cluster of this data directory would have (whether its server listens there is for the caller to try). */
function runningSocketUrl(dataDir: string, port: number): string | null {
  let clusterDir: string;
  try {
    clusterDir = realpathSync(join(resolve(dataDir), 'pg'));
  } catch {
    return null;
  }
  const socketDir = socketDirOf(clusterDir, port);
  return socketDir ? serverUrl(socketDir, port) : null;
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
