// The embedded cluster's superuser password: random per cluster, made before its initdb and
// kept in the data directory (0700, the service's user) in a 0600 file of the service's user.
// The cluster's own account (postgres, as root) and the browser's cannot read it; the
// service, the CLI and the tools read it from there, and it is never in the source.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

const passwordFileName = 'pg-password';

/** The one password every cluster had before each got its own; a cluster still on it is moved off at its next start. */
const formerConstantPassword = 'svc-embedded';

/** The password file of a data directory's cluster. */
export function passwordFileOf(dataDir: string): string {
  return join(dataDir, passwordFileName);
}

/**
 * The stored password of the data directory's cluster, made (32 random bytes) when there is
 * none yet. It is linked into place whole, and only if no file is there, so starts that race
 * (npm start, the CLI, a test run) all end up with the one that was linked first.
 */
export async function clusterPassword(dataDir: string): Promise<string> {
  return (await storedClusterPassword(dataDir)).password;
}

/**
 * clusterPassword, and whether this call made the file: a cluster that already exists then
 * has another password (its data directory was removed, or the file was), which the start
 * sets offline (embedded-cluster.ts).
 */
export async function storedClusterPassword(dataDir: string): Promise<{ password: string; made: boolean }> {
  const file = passwordFileOf(dataDir);
  const stored = await readPasswordFile(file);
  if (stored) return { password: stored, made: false };
  // the data directory is the service's user's only (see sealDataDir in @svc/core)
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const partial = `${file}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  const handle = await open(partial, 'wx', 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(`${randomBytes(32).toString('base64url')}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  let made = true;
  try {
    await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    made = false;
  } finally {
    await rm(partial, { force: true });
  }
  const agreed = await readPasswordFile(file);
  if (!agreed) throw new Error(`${file} is empty`);
  return { password: agreed, made };
}

/**
 * The password in `file`, or null when there is none. A file another user owns, or one others
 * may read, is refused rather than used: its password may no longer be the cluster's secret.
 */
export async function readPasswordFile(file: string): Promise<string | null> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!handle) return null;
  try {
    const found = await handle.stat();
    const uid = process.getuid?.();
    if (!found.isFile() || (uid !== undefined && found.uid !== uid)) throw new Error(`${file} is not a file of this user (uid ${uid})`);
    if ((found.mode & 0o077) !== 0) throw new Error(`${file} may be read by other users (mode ${(found.mode & 0o777).toString(8)}); it must be 0600`);
    return (await handle.readFile('utf8')).trim() || null;
  } finally {
    await handle.close();
  }
}

/**
 * Connects to the server at `urlWith(password)` once, to learn whether it runs and takes the
 * stored password. A cluster made with the former constant password is given the stored one
 * (starts that race all read the same file, so they set the same value). False when no
 * server listens there; throws when one does but takes neither password.
 */
export async function reachWithStoredPassword(urlWith: (password: string) => string, password: string): Promise<boolean> {
  const first = await tryConnect(urlWith(password));
  if (first === 'connected') return true;
  if (first === 'not running') return false;
  const former = new pg.Client({ connectionString: urlWith(formerConstantPassword), connectionTimeoutMillis: 10_000 });
  try {
    await former.connect();
  } catch (error) {
    await former.end().catch(() => {});
    if (isPasswordRefused(error)) throw new Error(`the embedded PostgreSQL refuses the password stored in its data directory's ${passwordFileName}`);
    throw error;
  }
  try {
    await former.query(`ALTER ROLE CURRENT_USER PASSWORD ${former.escapeLiteral(password)}`);
  } finally {
    await former.end();
  }
  return true;
}

async function tryConnect(url: string): Promise<'connected' | 'not running' | 'password refused'> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return 'connected';
  } catch (error) {
    if (isPasswordRefused(error)) return 'password refused';
    // no socket file (a stopped server removes it), or a stale one nothing listens on
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return 'not running';
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** invalid_password, and invalid_authorization_specification (no pg_hba line lets the user in). */
function isPasswordRefused(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '28P01' || code === '28000';
}
