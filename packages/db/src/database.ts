import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { startEmbeddedCluster } from './embedded-cluster.ts';
import { reachWithStoredPassword, storedClusterPassword, readPasswordFile, passwordFileOf } from './embedded-password.ts';
import { socketDirOf } from './embedded-socket.ts';

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
  /** SVC_DATA_DIR; the embedded cluster is its pg/ folder (as root, where that folder links to), its password file beside it. */
  dataDir: string;
  /** Port of the embedded cluster (SVC_EMBEDDED_PG_PORT): it names the socket, and the TCP port when `tcp` is on. */
  port?: number;
  /** SVC_EMBEDDED_PG_TCP: a server this start makes also listens on 127.0.0.1 (off: its socket only). */
  tcp?: boolean;
  database?: string;
  log?: (message: string) => void;
}

const embeddedUser = 'postgres';
const defaultPort = 54329;

/**
 * Returns a connection URL for the service's database: DATABASE_URL when given, otherwise
 * the embedded PostgreSQL cluster of the data directory, through its socket with its stored
 * password (started here when it does not run yet).
 */
export async function resolveDatabase(options: ResolveDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) return { url: options.url, embedded: false, stop: async () => {} };

  const port = options.port ?? defaultPort;
  const database = options.database ?? 'svc';
  const { password, made } = await storedClusterPassword(resolve(options.dataDir));
  // another process of the service (npm start, the CLI) may already run the cluster
  const runningSocketDir = socketDirOfDataDir(options.dataDir, port);
  if (runningSocketDir && (await reachWithStoredPassword((secret) => serverUrl(runningSocketDir, port, secret, 'postgres'), password))) {
    const url = serverUrl(runningSocketDir, port, password);
    await ensureDatabase(`${url}/postgres`, database);
    return { url: `${url}/${database}`, embedded: true, stop: async () => {} };
  }
  const cluster = await startEmbeddedCluster({
    dataDir: options.dataDir,
    port,
    tcp: options.tcp ?? false,
    user: embeddedUser,
    password,
    setPassword: made,
    log: options.log ?? (() => {}),
  });
  const url = serverUrl(cluster.socketDir, port, password);
  try {
    if (!(await reachWithStoredPassword((secret) => serverUrl(cluster.socketDir, port, secret, 'postgres'), password))) {
      throw new Error(`the embedded PostgreSQL started but does not answer on its socket in ${cluster.socketDir}`);
    }
    await ensureDatabase(`${url}/postgres`, database);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return { url: `${url}/${database}`, embedded: true, serverPid: cluster.pid, stop: () => cluster.stop() };
}

/**
 * The URL of a database of the data directory's running embedded cluster, through its socket
 * with its stored password, without starting or changing anything (null when the data
 * directory has no cluster or no password yet).
 */
export async function embeddedDatabaseUrl(options: { dataDir: string; port?: number; database: string }): Promise<string | null> {
  const port = options.port ?? defaultPort;
  const socketDir = socketDirOfDataDir(options.dataDir, port);
  const password = await readPasswordFile(passwordFileOf(resolve(options.dataDir)));
  return socketDir && password ? serverUrl(socketDir, port, password, options.database) : null;
}

/**
 * The embedded server's address: its socket directory (an absolute path, percent-encoded in
 * the host, as node-postgres and libpq read it), with a database when one is named.
 */
function serverUrl(socketDir: string, port: number, password: string, database?: string): string {
  const server = `postgres://${embeddedUser}:${encodeURIComponent(password)}@${encodeURIComponent(socketDir)}:${port}`;
  return database ? `${server}/${database}` : server;
}

/** The socket directory a cluster of this data directory has (whether its server listens there is for the caller to try). */
function socketDirOfDataDir(dataDir: string, port: number): string | null {
  try {
    return socketDirOf(realpathSync(join(resolve(dataDir), 'pg')), port);
  } catch {
    return null;
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
