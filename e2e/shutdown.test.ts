// `npm start` stopped the way a terminal stops it: Ctrl-C sends SIGINT to every process of
// the foreground process group at once. The service must still shut down in order (requests,
// renders, browser, worker and web, then the database), quietly, and leave nothing running.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@svc/db';
import { embeddedDatabaseUrl } from '@svc/db/admin';
import { describe, expect, it } from 'vitest';
import { apiAt } from './support/api.ts';
import { openLink } from './support/sessions.ts';
import { freePort } from './support/global-setup.ts';
import { descendants, isAlive, removeDataDir } from './support/npm-start.ts';
import { until } from './support/until.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('stopping npm start', () => {
  it('on Ctrl-C answers the render in flight, then stops everything it started without an error line', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-shutdown-'));
    const port = await freePort();
    const pgPort = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SVC_EMBEDDED_PG_PORT: String(pgPort) };
    // without DATABASE_URL: the embedded database is part of what is stopped
    for (const name of ['DATABASE_URL', 'SVC_PUBLIC_URL', 'NODE_ENV']) delete env[name];
    // a process group of its own, like a command a terminal runs in the foreground
    const service: ChildProcess = spawn(process.execPath, ['scripts/bootstrap.mjs', 'start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    service.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    service.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));
    try {
      await until(async () => {
        if (service.exitCode !== null) throw new Error(`npm start exited with ${service.exitCode}:\n${output}`);
        return /^Demo API key [^:]*: \S+\n/m.test(output);
      }, 150_000);
      // the banner names the files that hold the demo key and sign-in link
      const keyFile = /^Demo API key [^:]*: (\S+)$/m.exec(output)?.[1];
      expect(keyFile, output).toBeDefined();
      const apiKey = (await readFile(keyFile!, 'utf8')).trim();
      // the sign-in link comes in the same write as the key, and signs a browser into the demo account
      const linkFile = /^Sign in to the demo account in a browser with the link in (\S+) /m.exec(output)?.[1];
      const link = linkFile ? (await readFile(linkFile, 'utf8')).trim() : undefined;
      expect(link, output).toMatch(new RegExp(`^http://localhost:${port}/auth/sign-in/svc_link_[0-9a-f]{64}$`));
      const signIn = await openLink(new URL(link!).pathname, undefined, { base: `http://127.0.0.1:${port}` });
      expect(signIn.status).toBe(303);
      expect(signIn.headers.get('set-cookie')).toMatch(/^__Host-svc_session=/);

      // the watch on the job is connected before the render is sent, so it cannot start late
      // through the cluster's socket with its stored password, as the service and its CLI reach it
      const databaseUrl = await embeddedDatabaseUrl({ dataDir, port: pgPort, database: 'svc' });
      expect(databaseUrl).not.toBeNull();
      const jobs = await watchJobs(databaseUrl!);
      // a synchronous render whose page keeps the browser busy for a few seconds
      const html = '<script>const end = Date.now() + 4000; while (Date.now() < end) {}</script><h1>Rendered through shutdown</h1>';
      const rendering = apiAt(`http://127.0.0.1:${port}`, '/v1/pdf', { method: 'POST', key: apiKey, body: { html, javascript: { mode: 'enabled' } } });
      // an answer before the job was seen running (a refusal, an early failure) ends the wait
      // with what the client got and what the service said
      const answeredEarly = rendering.then((answer) => {
        throw new Error(`the render answered ${answer.status} before it was seen running: ${JSON.stringify(answer.body)}`);
      });
      const running = jobs.untilOneRuns();
      for (const each of [answeredEarly, running]) each.catch(() => {});
      await Promise.race([running, answeredEarly])
        .catch((error: unknown) => {
          throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output.slice(-4000)}`);
        })
        .finally(() => jobs.close());
      const started = descendants(service.pid!);
      expect(started.some((proc) => proc.args.includes('postgres') && proc.args.includes(String(pgPort)))).toBe(true);
      expect(started.some((proc) => proc.args.includes('chromium'))).toBe(true);

      process.kill(-service.pid!, 'SIGINT');
      const answer = await rendering;
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('succeeded');
      expect(await exited).toBe(0);

      const complaints = output.split('\n').filter((line) => /"level":"error"|terminating connection|unhandled|\bFATAL\b/i.test(line));
      expect(complaints).toEqual([]);
      expect(started.filter(isAlive).map((proc) => proc.args)).toEqual([]);
    } finally {
      if (service.exitCode === null) process.kill(-service.pid!, 'SIGKILL');
      await removeDataDir(dataDir);
    }
  }, 420_000);
});

async function watchJobs(url: string) {
  const db = createDb({ url, poolSize: 1 });
  await db.renderJob.count();
  return {
    // the worker starts its browser while the web answers: on a busy machine that takes a while
    untilOneRuns: () => until(async () => (await db.renderJob.count({ where: { status: 'running' } })) === 1, 150_000),
    close: () => db.$disconnect(),
  };
}
