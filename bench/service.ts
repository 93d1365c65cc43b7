// The service under measurement, as the benchmark and the soak start it: a web process and a
// worker process in production mode on a free loopback port.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Fixture } from './fixtures.ts';
import { serviceNodeArgs } from '../scripts/service-process.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** BENCH_PROFILE=DIR writes a V8 CPU profile of the web and worker processes into DIR when they exit. */
const profileDir = process.env.BENCH_PROFILE;

function start(script: string, env: Record<string, string>): ChildProcess {
  const profile = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])];
  return spawn(process.execPath, [...profile, ...serviceNodeArgs(script)], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', process.env.BENCH_NODE_FLAGS ? 'inherit' : 'ignore', 'inherit'],
  });
}

/** The web and worker processes under test; `restart` starts them anew (the memory run measures one run from the start). */
export interface Service {
  pids: number[];
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startService(env: Record<string, string>, baseUrl: string): Promise<Service> {
  let running: ChildProcess[] = [];
  const answers = () => fetch(`${baseUrl}/v1/openapi.json`).then((r) => r.ok, () => false);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
  const launch = async () => {
    // a web process from before that still holds the port would answer for the new one
    for (let attempt = 0; await answers(); attempt++) {
      if (attempt > 300) throw new Error('the previous web process still answers');
      await pause();
    }
    running = [start('apps/web/src/server.ts', env), start('apps/worker/src/main.ts', env)];
    for (let attempt = 0; !(await answers()); attempt++) {
      if (attempt > 600) throw new Error('service did not start');
      await pause();
    }
    if (running.some((child) => child.exitCode !== null)) throw new Error('a service process exited at start');
  };
  const stop = async () => {
    const exits = running.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined));
    for (const child of running) child.kill('SIGTERM');
    await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, 15_000))]);
  };
  await launch();
  return {
    get pids() {
      return running.map((child) => child.pid as number);
    },
    restart: async () => {
      await stop();
      await launch();
    },
    stop,
  };
}


/** One service render as the client saw it: the job's id, when the request left, when its answer arrived (epoch ms). */
export interface Trace {
  id: string;
  sentAt: number;
  answeredAt: number;
}

export const epochNow = () => performance.timeOrigin + performance.now();

export function serviceRenderer(baseUrl: string, apiKeys: string[], traces?: Trace[]) {
  let turn = 0;
  return async (fixture: Fixture) => {
    const sentAt = epochNow();
    const apiKey = apiKeys[turn++ % apiKeys.length];
    const body = fixture.kind === 'pdf' ? { html: fixture.html } : { html: fixture.html, image: { format: 'png', width: 1280, height: 720 } };
    const response = await fetch(`${baseUrl}/v1/${fixture.kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const job = (await response.json()) as { id: string; status: string };
    if (response.status !== 200 || job.status !== 'succeeded') throw new Error(`service render failed: ${response.status} ${JSON.stringify(job)}`);
    traces?.push({ id: job.id, sentAt, answeredAt: epochNow() });
  };
}

