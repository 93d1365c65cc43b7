// Runs once per `vitest run`: a real PostgreSQL (DATABASE_URL's server, else the embedded
// one), a migrated template database, and a real web server process for the HTTP tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { migrate, resolveDatabase, withDatabase } from '@svc/db/admin';
import { cloneTemplate, createTemplateDatabase, dropStaleTestDatabases, startTestRun, testDatabaseName } from '@svc/db/testing';
import type { TestProject } from 'vitest/node';
import { startSmtpServer } from './smtp.ts';
import { buildService } from '../../scripts/build-service.mjs';
import { serviceNodeArgs } from '../../scripts/service-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbServerUrl: string;
    httpDatabaseUrl: string;
    baseUrl: string;
    filesDir: string;
    /** Where the test SMTP server writes every message the web process sends. */
    mailDir: string;
    /** The worker's probe and metrics server (SVC_WORKER_HEALTH_PORT). */
    workerHealthUrl: string;
    /** The bearer token both processes' /metrics require (SVC_METRICS_TOKEN). */
    metricsToken: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export default async function setup(project: TestProject) {
  // the processes the tests start run from their builds: made again from the sources as they
  // are now (under a second), so a run of vitest alone never tests an older build
  await buildService(root);
  const database = await resolveDatabase({
    url: process.env.DATABASE_URL,
    dataDir: `${root}/.data/test`,
    // another checkout's suite can run beside this one on a port of its own
    port: Number(process.env.SVC_TEST_PG_PORT ?? 54339),
    database: 'svc_ci',
  });
  const serverUrl = withDatabase(database.url, 'postgres');
  await dropStaleTestDatabases(serverUrl);
  const testRun = await startTestRun(serverUrl);
  const templateUrl = await createTemplateDatabase(serverUrl);
  await migrate(templateUrl);

  const httpDatabaseUrl = await cloneTemplate(serverUrl, testDatabaseName('http'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const filesDir = `${root}/.data/test-files`;
  const mailDir = `${root}/.data/test-mail`;
  const smtp = await startSmtpServer(mailDir);
  const workerHealthPort = await freePort();
  const metricsToken = randomBytes(16).toString('hex');
  const env = {
    DATABASE_URL: httpDatabaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_PUBLIC_URL: baseUrl,
    SVC_DATA_DIR: filesDir,
    SVC_SMTP_URL: smtp.url,
    SVC_EMAIL_FROM: 'Rendering Service <no-reply@svc.test>',
    SVC_METRICS_TOKEN: metricsToken,
    SVC_WORKER_HEALTH_PORT: String(workerHealthPort),
    SVC_WORKER_HEALTH_HOST: '127.0.0.1',
  };
  const web = startProcess('apps/web/src/server.ts', env);
  const worker = startProcess('apps/worker/src/main.ts', env);
  try {
    await waitFor(`${baseUrl}/v1/openapi.json`, web);
  } catch (error) {
    // no teardown runs after a failed setup: stop what started, or the worker and its browser outlive the run
    await Promise.all([stopProcess(web), stopProcess(worker)]);
    await smtp.close();
    await testRun.end();
    await database.stop();
    throw error;
  }

  project.provide('dbServerUrl', serverUrl);
  project.provide('httpDatabaseUrl', httpDatabaseUrl);
  project.provide('baseUrl', baseUrl);
  project.provide('filesDir', `${filesDir}/files`);
  project.provide('mailDir', mailDir);
  project.provide('workerHealthUrl', `http://127.0.0.1:${workerHealthPort}`);
  project.provide('metricsToken', metricsToken);

  return async () => {
    await Promise.all([stopProcess(web), stopProcess(worker)]);
    await smtp.close();
    await testRun.end();
    await database.stop();
  };
}

export function startProcess(script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, serviceNodeArgs(script), {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // flowing, so output nobody waits for never fills the pipe and stalls the process; warnings
  // and errors stay in sight in the test run's own output (a line per request would bury them)
  child.stdout?.resume();
  let partial = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (!/^\{"level":"info"/.test(line)) process.stderr.write(`${line}\n`);
  });
  return child;
}

/** Resolves once the process prints `line`, on stdout or in its log (the worker logs "worker running"). */
export async function waitForLine(child: ChildProcess, line: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4096);
      if (seen.includes(line)) {
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => reject(new Error(`process exited with ${code} before it printed "${line}"`));
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Resolves once `url` answers 200 (a web process is listening). */
export async function waitFor(url: string, child: ChildProcess) {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before it answered`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}
