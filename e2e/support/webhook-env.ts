// A service of its own for delivery tests: a cloned database, a web process and a worker
// process whose egress allowlist names the loopback receiver, and which trust the test CA.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccount, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import type { CreateAccountOptions } from '../../packages/core/src/accounts/create-account.ts';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { inject } from 'vitest';
import { type ApiRequest, type ApiResponse, apiAt } from './api.ts';
import { until } from './until.ts';
import { freePort } from './global-setup.ts';
import { serviceNodeArgs } from '../../scripts/service-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
}

export interface WebhookEnv {
  baseUrl: string;
  database: TestDatabase;
  web: ServiceProcess;
  worker: ServiceProcess;
  call<T = any>(path: string, request?: ApiRequest): Promise<ApiResponse<T>>;
  newAccount(options?: Partial<CreateAccountOptions>): Promise<{ accountId: string; apiKey: string }>;
  /** Starts another worker process with the same settings (after a test killed one). */
  startWorker(): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

function start(script: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, serviceNodeArgs(script), {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function stop({ child }: ServiceProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** A service of its own; `env` adds settings (the AI provider's, for instance), and the CA bundle is trusted when given. */
export async function startWebhookEnv(options: { allowlist: string; caBundlePath?: string; env?: Record<string, string> }): Promise<WebhookEnv> {
  const database = await createTestDatabase(inject('dbServerUrl'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-webhooks-'));
  const env = {
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_PUBLIC_URL: baseUrl,
    SVC_DATA_DIR: dataDir,
    SVC_UNSAFE_EGRESS_ALLOWLIST: options.allowlist,
    ...(options.caBundlePath ? { NODE_EXTRA_CA_CERTS: options.caBundlePath } : {}),
    SVC_WORKER_CONCURRENCY: '4',
    ...options.env,
  };
  const web = start('apps/web/src/server.ts', env);
  let worker = start('apps/worker/src/main.ts', env);
  await until(async () => web.output().includes('web listening') && worker.output().includes('worker running'), 120_000);
  const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig({ SVC_PUBLIC_URL: baseUrl }) });

  const call = <T = any>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> => apiAt<T>(baseUrl, path, request);

  return {
    baseUrl,
    database,
    web,
    get worker() {
      return worker;
    },
    call,
    newAccount: async (accountOptions = {}) => {
      const created = await createAccount(ctx, { plan: 'scale', credits: 100, ...accountOptions });
      return created;
    },
    startWorker: async () => {
      worker = start('apps/worker/src/main.ts', env);
      await until(async () => worker.output().includes('worker running'), 120_000);
      return worker;
    },
    stop: async () => {
      await Promise.all([stop(web), stop(worker)]);
      await database.drop();
    },
  };
}
