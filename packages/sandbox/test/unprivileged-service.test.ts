// A service that runs as a normal user. Its browser and parsers then run as that same uid, so
// the files of its data directory and its processes' environments are readable to them by
// permission: only the sandbox's view keeps them away. Run as root (as CI does), a throwaway
// unprivileged account plays the service, and every command below starts as that account, the
// launch chain included; run as a normal user, the test's own user does.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSystemAccount } from '@svc/system-accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sandboxedCommand, type SandboxSpec } from '../src/sandbox-command.ts';
import { decideLauncher, type SandboxLauncher, sandboxLauncher, SandboxUnavailableError, UNSANDBOXED_DEV_FLAG } from '../src/sandbox-launcher.ts';

const asRoot = process.getuid?.() === 0;
const service = asRoot ? ensureSystemAccount('svc-test-service') : { uid: process.getuid!(), gid: process.getgid!() };
const PLANTED = { DATABASE_URL: 'postgres://svc:canary-db-4c2d@localhost/svc', SVC_AI_API_KEY: 'canary-ai-7e90' };
const SECRETS_KEY = 'canary-secrets-key-b81f';
const CHROMIUM = process.env.SVC_CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell';

let dataDir: string;
let profile: string;
let serviceProcess: ChildProcess;
/** The launcher the service would decide on as this user: no account to switch to. */
let launcher: SandboxLauncher;

/** The command line as the service's user, the way the service itself would be started. */
function asService(command: string, args: string[]): [string, string[]] {
  return asRoot ? ['/usr/bin/setpriv', [`--reuid=${service.uid}`, `--regid=${service.gid}`, '--clear-groups', '--', command, ...args]] : [command, args];
}

function run(command: string, args: string[], env: Record<string, string> = { PATH: '/usr/bin:/bin' }): string {
  const [file, argv] = asService(command, args);
  return execFileSync(file, argv, { encoding: 'utf8', cwd: '/', env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

/** Runs a command in the sandbox as the service's user, with this view. */
function sandboxed(spec: Omit<SandboxSpec, 'command' | 'args'>, command: string, args: string[], env?: Record<string, string>): string {
  const chain = sandboxedCommand({ ...spec, command, args }, launcher);
  return run(chain.command, chain.args, env);
}

const ownedByService = (path: string) => {
  if (asRoot) chownSync(path, service.uid, service.gid);
};

beforeAll(() => {
  launcher = { ...sandboxLauncher(), account: null };
  // the service's data directory as it keeps it: 0700, secrets.key 0600, the cluster's directory
  dataDir = mkdtempSync(join(tmpdir(), 'svc-unprivileged-data-'));
  writeFileSync(join(dataDir, 'secrets.key'), SECRETS_KEY, { mode: 0o600 });
  mkdirSync(join(dataDir, 'pg'), { mode: 0o700 });
  for (const path of [dataDir, join(dataDir, 'secrets.key'), join(dataDir, 'pg')]) ownedByService(path);
  profile = mkdtempSync(join(tmpdir(), 'svc-unprivileged-profile-'));
  ownedByService(profile);
  // a process of the service, with its secrets in its environment
  const [file, argv] = asService('/usr/bin/sleep', ['300']);
  const env: Record<string, string> = { PATH: '/usr/bin:/bin', ...PLANTED };
  serviceProcess = spawn(file, argv, { env: env as NodeJS.ProcessEnv, stdio: 'ignore', cwd: '/' });
});

afterAll(() => {
  serviceProcess?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
});

test("the service's own user can read its data directory and its processes' environments", async () => {
  // without the sandbox, a program running as the service's uid reads both: the sandbox is what stops it
  expect(run('cat', [join(dataDir, 'secrets.key')])).toBe(SECRETS_KEY);
  await expect.poll(() => run('cat', [`/proc/${serviceProcess.pid}/environ`]), { timeout: 30_000 }).toContain(PLANTED.SVC_AI_API_KEY);
});

describe.each([
  { view: "the browser's", spec: { network: 'shared' as const, writable: [] as string[] } },
  { view: "a parser's", spec: { network: 'none' as const } },
])('in $view sandbox, as the service’s own uid', ({ spec }) => {
  const view = () => ({ ...spec, writable: spec.network === 'shared' ? [profile] : [] });

  test('the program runs as that uid, with no new privileges and the seccomp filter', () => {
    const status = sandboxed(view(), 'cat', ['/proc/self/status']);
    expect(status).toMatch(new RegExp(`^Uid:\\s+${service.uid}\\s`, 'm'));
    expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
    expect(status).toMatch(/^Seccomp:\s+2$/m);
  });

  test("the data directory, secrets.key, the cluster's directory and the service's processes are not there", () => {
    const missing = (command: string, args: string[]) => expect(() => sandboxed(view(), command, args)).toThrow(/No such file or directory/);
    missing('cat', [join(dataDir, 'secrets.key')]);
    missing('ls', [join(dataDir, 'pg')]);
    missing('cat', [`/proc/${serviceProcess.pid}/environ`]);
    missing('cat', [`/proc/${process.pid}/environ`]);
  });
});

test.skipIf(!existsSync(CHROMIUM))("Chromium starts and draws in the browser's sandbox as the service's own user, its own sandbox nested inside", () => {
  const shot = join(profile, 'shot.png');
  const env = { PATH: '/usr/bin:/bin', HOME: profile, TMPDIR: profile, LANG: 'C.UTF-8' };
  const args = ['--headless', '--disable-gpu', `--user-data-dir=${join(profile, 'chromium')}`, `--screenshot=${shot}`, '--window-size=200,100', 'data:text/html,<p>sandboxed</p>'];
  sandboxed({ network: 'shared', writable: [profile] }, CHROMIUM, args, env);
  expect(existsSync(shot)).toBe(true);
});

test('without bubblewrap nothing starts, unless the development flag is set', () => {
  const missing = '/nonexistent/bwrap';
  expect(() => decideLauncher({}, missing)).toThrow(SandboxUnavailableError);
  expect(decideLauncher({ [UNSANDBOXED_DEV_FLAG]: '1' }, missing).bwrap).toBeNull();
});
