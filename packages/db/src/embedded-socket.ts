// Where the embedded server listens. It has no TCP port unless an operator asks for one: its
// one door is a Unix-domain socket in a 0700 directory of the cluster's account, so no other
// local account (the browser's among them) reaches even its password prompt, and the
// service's processes talk to it without the TCP stack, which costs a query's round trip a
// good part of its CPU on both sides.
import { createHash } from 'node:crypto';
import { chmod, chown, lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The longest socket path the platform takes (sun_path holds 108 bytes, its terminating zero included). */
const maxSocketPath = 107;

/** Where short socket directories go: PostgreSQL's own default, the same for every process of the service. */
const shortSocketParent = '/tmp';

export interface SocketOwner {
  uid: number;
  gid: number;
}

/**
 * The server's socket directory: the cluster directory itself, or, when the socket's path
 * there would be too long for the platform (a deep data directory), a short directory named
 * by the cluster's path, which prepareSocketDir makes and checks before the server starts.
 */
export function socketDirOf(clusterDir: string, port: number): string {
  if (socketPath(clusterDir, port).length <= maxSocketPath) return clusterDir;
  return join(shortSocketParent, `svc-pg-${createHash('sha256').update(clusterDir).digest('hex').slice(0, 16)}`);
}

/** The socket's file, as PostgreSQL names it in its socket directory. */
export function socketPath(socketDir: string, port: number): string {
  return join(socketDir, `.s.PGSQL.${port}`);
}

/**
 * Makes a short socket directory, 0700 and owned by the cluster's account, or accepts the one
 * an earlier start made. Anything else found at that name (another account's directory, a
 * link, a looser mode) could let another account listen in the server's place or reach its
 * socket, so the start stops there.
 */
export async function prepareSocketDir(socketDir: string, owner: SocketOwner): Promise<void> {
  try {
    await mkdir(socketDir, { mode: 0o700 });
    // explicit, since mkdir's mode is cut by the umask; made by root, it is then handed over
    await chmod(socketDir, 0o700);
    if (process.getuid?.() === 0) await chown(socketDir, owner.uid, owner.gid);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const found = await lstat(socketDir);
  if (!found.isDirectory() || found.uid !== owner.uid || (found.mode & 0o777) !== 0o700) {
    throw new Error(`${socketDir} is not a 0700 directory of uid ${owner.uid}; the embedded PostgreSQL will not put its socket there (remove it, or use a shorter SVC_DATA_DIR)`);
  }
}
