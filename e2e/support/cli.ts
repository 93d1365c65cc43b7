// The operator CLI as `npm run svc -- ...` runs it (scripts/bootstrap.mjs svc), against the
// service under test. Started without npm's own start-up, which costs seconds on a busy machine;
// e2e/cli.test.ts runs it through npm once. Asynchronous, so the test's event loop keeps
// running (a synchronous spawn held it, and a keep-alive connection the server closed
// meanwhile was then reused by the next request).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `svc ...args` with the test database's URL; `viaNpm` runs the README's `npm run svc` itself. */
export function svc(args: string[], { env = {}, viaNpm = false }: { env?: Record<string, string>; viaNpm?: boolean } = {}): Promise<CliRun> {
  const [command, prefix] = viaNpm ? ['npm', ['run', 'svc', '--']] : [process.execPath, ['scripts/bootstrap.mjs', 'svc']];
  const child = spawn(command, [...prefix, ...args], { cwd: root, env: { ...process.env, DATABASE_URL: inject('httpDatabaseUrl'), ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
