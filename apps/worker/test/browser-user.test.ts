// The worker's own browser, as it starts in production: the data directory it was given is
// sealed before Chromium starts, Chromium runs as an account that cannot read it nor the
// worker's environment, and no Chromium process carries the worker's secrets.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loggedEvent } from '../../../e2e/support/log-lines.ts';
import { until } from '../../../e2e/support/until.ts';
import { processTree } from '../../../packages/renderer/test/support/processes.ts';
import { useWorkerProcesses } from './support/worker-processes.ts';

const processes = useWorkerProcesses('browser-user');

const SECRETS = { SVC_SIGNING_SECRET: 'canary-signing-secret-41d2', AWS_SECRET_ACCESS_KEY: 'canary-aws-secret-8e17', SVC_SMTP_URL: 'smtp://user:canary-smtp@127.0.0.1:1' };

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

test("the worker seals its data directory, and its browser can read neither that nor the worker's secrets", async () => {
  // a data directory as an older version or a umask of 022 left it: open to every user
  const dataDir = processes.dataDir();
  mkdirSync(join(dataDir, 'files', 'renders'), { recursive: true });
  writeFileSync(join(dataDir, 'files', 'renders', 'tenant.pdf'), '%PDF-1.7 tenant');
  for (const dir of [dataDir, join(dataDir, 'files'), join(dataDir, 'files', 'renders')]) chmodSync(dir, 0o755);
  chmodSync(join(dataDir, 'files', 'renders', 'tenant.pdf'), 0o644);

  const worker = processes.startWorker(SECRETS);
  await until(async () => worker.output().includes('worker running'), 120_000);
  expect(mode(dataDir)).toBe('700');
  expect(mode(join(dataDir, 'files'))).toBe('700');

  const browserPid = Number(loggedEvent(worker.output(), 'browser launched')?.pid);
  expect(browserPid).toBeGreaterThan(0);
  const status = readFileSync(`/proc/${browserPid}/status`, 'utf8');
  const uid = Number(status.match(/^Uid:\s*(\d+)/m)![1]);
  const gid = Number(status.match(/^Gid:\s*(\d+)/m)![1]);
  expect(status).toMatch(/^NoNewPrivs:\s*1$/m);
  if (process.getuid?.() === 0) {
    expect(uid).not.toBe(0);
    // what a process that escaped Chromium's sandbox could do with the browser's account
    const readAs = (path: string) => execFileSync('/usr/bin/setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', 'cat', path], { stdio: ['ignore', 'pipe', 'pipe'] });
    expect(() => readAs(join(dataDir, 'files', 'renders', 'tenant.pdf'))).toThrow(/Permission denied/);
    expect(() => readAs(`/proc/${worker.child.pid}/environ`)).toThrow(/Permission denied/);
  }

  const secretValues = [...Object.values(SECRETS), processes.database().url];
  for (const pid of processTree(browserPid)) {
    let environment: string;
    try {
      environment = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue; // ended while we walked
    }
    const names = environment.split('\0').filter(Boolean).map((line) => line.slice(0, line.indexOf('=')));
    expect(names.filter((name) => /^(SVC_|AWS_|DATABASE_URL$|NODE_ENV$)/.test(name))).toEqual([]);
    for (const value of secretValues) expect(environment).not.toContain(value);
  }
  worker.child.kill('SIGTERM');
  await new Promise((resolve) => worker.child.once('exit', resolve));
});
