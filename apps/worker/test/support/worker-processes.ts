// Real worker processes against a database of the calling test file's own, killed at the end.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, inject } from 'vitest';
import { serviceNodeArgs } from '../../../../scripts/service-process.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

export interface StartedWorker {
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr. */
  output: () => string;
}

export function useWorkerProcesses(name: string) {
  const state: { database?: TestDatabase; dataDir?: string } = {};
  const workers: ChildProcess[] = [];
  beforeAll(async () => {
    state.database = await createTestDatabase(inject('dbServerUrl'));
    state.dataDir = await mkdtemp(join(tmpdir(), `svc-${name}-`));
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
    await state.database?.drop();
  });
  return {
    database: () => state.database!,
    dataDir: () => state.dataDir!,
    startWorker(env: Record<string, string> = {}): StartedWorker {
      const child = spawn(process.execPath, serviceNodeArgs('apps/worker/src/main.ts'), {
        cwd: root,
        env: { ...process.env, DATABASE_URL: state.database!.url, NODE_ENV: 'production', SVC_DATA_DIR: state.dataDir!, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk) => (output += chunk));
      child.stderr?.on('data', (chunk) => (output += chunk));
      workers.push(child);
      return { child, output: () => output };
    },
  };
}
