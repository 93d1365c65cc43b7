// A service of its own for fault tests: a web and a worker process on a database cloned from
// the migrated template, an S3 store behind a switch that can make it refuse writes, and an
// HTTPS webhook receiver that can hang or reset connections. Every process can be killed
// (SIGKILL) and started again on the same settings, the web process on the same port.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccount, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import type { TestDatabase } from '@svc/db/testing';
import { type ApiRequest, type ApiResponse, apiAt } from './api.ts';
import { freePort } from './global-setup.ts';
import { startS3, type TestS3 } from './s3.ts';
import { until } from './until.ts';
import { type ReceivedRequest, type Receiver, startReceiver } from './webhook-receiver.ts';
import { makeTestTls } from './webhook-tls.ts';
import { serviceNodeArgs } from '../../scripts/service-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
}

/** How the webhook receiver treats a request: answers 200, never answers, or drops the connection. */
export type ReceiverMode = 'answer' | 'hang' | 'reset';

export interface FaultEnv {
  baseUrl: string;
  database: TestDatabase;
  web: ServiceProcess;
  worker: ServiceProcess;
  receiver: Receiver;
  /** Requests the receiver answered 200: the deliveries that arrived. */
  delivered: ReceivedRequest[];
  setReceiverMode(mode: ReceiverMode): void;
  /** While set, the S3 store answers every write 503 (reads still pass). */
  refuseStorageWrites(refuse: boolean): void;
  call<T = any>(path: string, request?: ApiRequest): Promise<ApiResponse<T>>;
  newAccount(credits: number): Promise<{ accountId: string; apiKey: string }>;
  restartWeb(): Promise<void>;
  restartWorker(): Promise<void>;
  stop(): Promise<void>;
}

export interface FaultEnvOptions {
  /** A database of its own: cloned from the run's template, or migrated on a server of the test's own. */
  database: TestDatabase;
  env?: Record<string, string>;
}

export function startService(script: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, serviceNodeArgs(script), {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // the tail only: a long run under faults logs a lot
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

export async function stopService({ child }: ServiceProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** kill -9, resolving once the process is gone. */
export async function killHard({ child }: ServiceProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** An HTTP proxy in front of the S3 server that answers writes 503 SlowDown while refusing. */
async function storageSwitch(s3: TestS3): Promise<{ endpoint: string; refuse(on: boolean): void; close(): Promise<void> }> {
  const target = new URL(s3.endpoint);
  let refusing = false;
  const server: Server = createServer((req, res) => {
    if (refusing && req.method !== 'GET' && req.method !== 'HEAD') {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/xml' }).end('<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
      return;
    }
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refuse: (on) => (refusing = on),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startFaultEnv(options: FaultEnvOptions): Promise<FaultEnv> {
  const tls = makeTestTls();
  const receiver = await startReceiver(tls);
  const delivered: ReceivedRequest[] = [];
  let mode: ReceiverMode = 'answer';
  receiver.respondWith((request, response) => {
    if (mode === 'hang') return;
    if (mode === 'reset') {
      response.socket?.destroy();
      return;
    }
    delivered.push(request);
    response.writeHead(200).end('ok');
  });
  const s3 = await startS3('svc-faults');
  const storage = await storageSwitch(s3);
  const database = options.database;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-faults-'));
  const env = {
    ...s3.env,
    SVC_S3_ENDPOINT: storage.endpoint,
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_PUBLIC_URL: baseUrl,
    SVC_DATA_DIR: dataDir,
    SVC_UNSAFE_EGRESS_ALLOWLIST: `localhost:${receiver.port}`,
    NODE_EXTRA_CA_CERTS: tls.bundlePath,
    ...options.env,
  };
  const started = { web: startService('apps/web/src/server.ts', env), worker: startService('apps/worker/src/main.ts', env) };
  const running = async (process: ServiceProcess, line: string) =>
    until(async () => {
      if (process.child.exitCode !== null) throw new Error(`process exited with ${process.child.exitCode}:\n${process.output().slice(-3000)}`);
      return process.output().includes(line);
    }, 120_000);
  await Promise.all([running(started.web, 'web listening'), running(started.worker, 'worker running')]);
  const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig({ SVC_PUBLIC_URL: baseUrl }) });

  return {
    baseUrl,
    database,
    get web() {
      return started.web;
    },
    get worker() {
      return started.worker;
    },
    receiver,
    delivered,
    setReceiverMode: (next) => (mode = next),
    refuseStorageWrites: (refuse) => storage.refuse(refuse),
    call: (path, request = {}) => apiAt(baseUrl, path, request),
    newAccount: (credits) => createAccount(ctx, { plan: 'scale', credits }),
    restartWeb: async () => {
      await killHard(started.web);
      started.web = startService('apps/web/src/server.ts', env);
      await running(started.web, 'web listening');
    },
    restartWorker: async () => {
      await killHard(started.worker);
      started.worker = startService('apps/worker/src/main.ts', env);
      await running(started.worker, 'worker running');
    },
    stop: async () => {
      await Promise.all([stopService(started.web), stopService(started.worker)]);
      await database.drop();
      await storage.close();
      await s3.close();
      await receiver.close();
      await Promise.all([rm(dataDir, { recursive: true, force: true }), rm(tls.dir, { recursive: true, force: true })]);
    },
  };
}

interface Proc {
  pid: number;
  ppid: number;
  args: string;
}

function processTable(): Proc[] {
  const table: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      table.push({ pid: Number(name), ppid, args });
    } catch {
      // the process ended while the table was read
    }
  }
  return table;
}

/** Every process below `pid` (the browser sits in a process group of its own, still a child). */
export function descendants(pid: number): Proc[] {
  const table = processTable();
  const found: Proc[] = [];
  const parents = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const proc of table) {
      if (parents.has(proc.ppid) && !parents.has(proc.pid)) {
        parents.add(proc.pid);
        found.push(proc);
        grew = true;
      }
    }
  }
  return found;
}

/** Chromium's browser process under `pid`: a Chromium process that is no helper (no --type=). */
export function browserProcesses(pid: number): Proc[] {
  return descendants(pid).filter((proc) => /chrom/i.test(proc.args) && proc.args.includes('--remote-debugging-pipe') && !proc.args.includes('--type='));
}
