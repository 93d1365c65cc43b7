// `npm start` as a person or a supervisor runs it: in a data directory and on ports of its own,
// with the embedded database, and the processes it starts, followed by pid even once npm is gone.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './global-setup.ts';
import { until } from './until.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface StartedService {
  /** The `npm start` process, leader of a process group of its own (like a terminal's foreground command). */
  npm: ChildProcess;
  port: number;
  pgPort: number;
  baseUrl: string;
  /** Its SVC_DATA_DIR (removed by cleanUp). */
  dataDir: string;
  stdout(): string;
  stderr(): string;
  /** npm's exit code once it has exited. */
  exited: Promise<number | null>;
  /** Ends whatever still runs and removes the data directory. */
  cleanUp(): Promise<void>;
}

/**
 * Runs `npm start` and resolves once it has printed its ready banner. A data directory of its
 * own unless `extraEnv` names one (SVC_DATA_DIR: a start after an earlier one).
 */
export async function npmStart(extraEnv: Record<string, string> = {}): Promise<StartedService> {
  const dataDir = extraEnv.SVC_DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'svc-npm-start-')));
  const port = await freePort();
  const pgPort = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SVC_EMBEDDED_PG_PORT: String(pgPort), ...extraEnv };
  // without DATABASE_URL: the embedded database is part of what is stopped
  for (const name of ['DATABASE_URL', 'SVC_PUBLIC_URL', 'NODE_ENV', 'SVC_LOG_FORMAT']) if (!(name in extraEnv)) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  const npm = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  npm.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  npm.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  let started: Proc[] = [];
  const service: StartedService = {
    npm,
    port,
    pgPort,
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async cleanUp() {
      for (const proc of started.filter(isAlive)) killIfAlive(proc.pid);
      if (npm.exitCode === null && npm.signalCode === null) killIfAlive(-npm.pid!);
      await removeDataDir(dataDir);
    },
  };
  try {
    await until(async () => {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${stdout}\n${stderr}`);
      return stdout.includes('Rendering service ready at');
    }, 150_000);
    started = descendants(npm.pid!);
  } catch (error) {
    await service.cleanUp();
    throw error;
  }
  return service;
}

export interface Proc {
  pid: number;
  /** start time in clock ticks since boot: with the pid, it names one process even if the pid is reused */
  startedAt: string;
  args: string;
}

function stat(pid: number): { ppid: number; startedAt: string } | null {
  try {
    // the fields after the command name, which sits in parentheses and may hold spaces
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), startedAt: fields[19]! };
  } catch {
    return null;
  }
}

/** Every process below `pid`, wherever its process group: the database and the browser have their own. */
export function descendants(pid: number): Proc[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const child = Number(name);
    const info = Number.isInteger(child) ? stat(child) : null;
    if (!info) continue;
    parents.set(info.ppid, [...(parents.get(info.ppid) ?? []), child]);
  }
  const found: Proc[] = [];
  const queue = [...(parents.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    const info = stat(next);
    if (!info) continue;
    let args = '';
    try {
      args = readFileSync(`/proc/${next}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue;
    }
    found.push({ pid: next, startedAt: info.startedAt, args });
    queue.push(...(parents.get(next) ?? []));
  }
  return found;
}

/** SIGKILL to a process (or a group, by a negative pid) that may have ended since it was last seen alive. */
function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

export function isAlive(proc: Proc): boolean {
  const info = stat(proc.pid);
  if (!info || info.startedAt !== proc.startedAt) return false;
  // a zombie has ended; only its parent has not collected it yet
  return !/^\S+ \(.*\) Z /.test(readFileSync(`/proc/${proc.pid}/stat`, 'utf8'));
}

/** Whether nothing listens on the port any more: this process can take it. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** As root the cluster lives outside the data directory, which links to it. */
export async function removeDataDir(dataDir: string) {
  const link = join(dataDir, 'pg');
  if (existsSync(link)) await rm(realpathSync(link), { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}
