// `npm start`: prepares the database (embedded unless DATABASE_URL is set), applies
// migrations, opens the demo account on first boot, then runs the web and worker
// processes in production mode until stopped.
//
// Stopping (Ctrl-C, SIGTERM) goes in order: the web process stops accepting requests and
// answers those in flight, the worker lets running renders finish (or hands them back past
// a bound) and closes its browser, and only when both have exited does the embedded
// database stop. The database runs in a process group of its own so that a terminal's
// Ctrl-C, which reaches every process of the foreground group, does not stop it early.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServiceContext, createSignInLink, ensureDemoAccount, jsonLogger, loadConfig, resealSecrets, sealDataDir } from '@svc/core';
import { createDb } from '@svc/db';
import { type DatabaseHandle, migrate, resolveDatabase } from '@svc/db/admin';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const publicUrl = (process.env.SVC_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
const logger = jsonLogger('start');
const say = (line: string) => process.stdout.write(`${line}\n`);

let database: DatabaseHandle | null = null;
const children: ChildProcess[] = [];
let stopping: Promise<void> | null = null;

function stop(code: number): Promise<void> {
  stopping ??= (async () => {
    for (const child of children) if (running(child)) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (running(child) ? new Promise((resolve) => child.once('exit', resolve)) : null)));
    await database?.stop();
    process.exit(code);
  })();
  return stopping;
}
// handled from the start, so a stop during set-up still ends the database it started
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));

try {
  const dataDir = process.env.SVC_DATA_DIR ?? '.data';
  // the embedded cluster and the tenants' files: for the service's user only
  if (!process.env.DATABASE_URL || !loadConfig().s3) await sealDataDir(dataDir);
  database = await resolveDatabase({
    url: process.env.DATABASE_URL,
    dataDir,
    port: process.env.SVC_EMBEDDED_PG_PORT ? Number(process.env.SVC_EMBEDDED_PG_PORT) : undefined,
    log: (message) => logger.info(message),
  });
  if (stopping) await stopping;
  say(database.embedded ? 'Database: embedded PostgreSQL' : 'Database: DATABASE_URL');
  const { applied } = await migrate(database.url);
  if (applied.length > 0) say(`Migrations applied: ${applied.join(', ')}`);

  const db = createDb({ url: database.url, poolSize: 2 });
  const setupCtx = createServiceContext({ db, logger, config: { ...loadConfig(), publicUrl } });
  // secrets stored before sealing, or under a key since rotated, are sealed under the current key
  const { resealed } = await resealSecrets(setupCtx);
  if (resealed > 0) say(`Secrets sealed under the current key: ${resealed}`);
  const demo = await ensureDemoAccount(setupCtx);
  const demoLink = demo ? await createSignInLink(setupCtx, { accountId: demo.accountId }) : null;
  await db.$disconnect();
  if (stopping) await stopping;

  const env = { ...process.env, DATABASE_URL: database.url, PORT: String(port), SVC_PUBLIC_URL: publicUrl, NODE_ENV: 'production' as const };
  const start = (script: string) => spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const web = start('apps/web/src/server.ts');
  const worker = start('apps/worker/src/main.ts');
  children.push(web, worker);
  for (const child of children) {
    child.once('exit', (code, signal) => {
      if (stopping) return;
      logger.error('a service process exited; stopping', { code, signal });
      void stop(1);
    });
  }

  await Promise.all([waitForLine(web, 'web listening'), waitForLine(worker, 'worker running')]);
  await waitForWeb(`http://127.0.0.1:${port}/v1/openapi.json`);
  if (stopping) await stopping;
  // one write, so whoever reads the ready line has the demo key with it
  const lines = [`Rendering service ready at ${publicUrl}`];
  if (demo) {
    lines.push(
      `Demo account ${demo.accountId} created with trial credits.`,
      `Demo API key (shown once, keep it): ${demo.apiKey}`,
      `Try: curl -H "Authorization: Bearer ${demo.apiKey}" ${publicUrl}/v1/keys`,
    );
  }
  if (demoLink) {
    lines.push(`Sign in to the demo account in a browser (one use, until ${demoLink.expiresAt.toISOString()}): ${demoLink.url}`);
  }
  say(lines.join('\n'));
} catch (error) {
  if (!stopping) {
    logger.error('start failed', { error: error instanceof Error ? error.message : String(error) });
    await stop(1);
  }
}

function running(child: ChildProcess) {
  return child.exitCode === null && child.signalCode === null;
}

/** Resolves once the process prints `line`; its later output is read and dropped. */
function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4096);
      if (!seen.includes(line)) return;
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      resolve();
    };
    const onExit = () => reject(new Error(`a service process exited before it printed "${line}"`));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    // flowing, so output nobody waits for never fills the pipe
    child.stdout?.resume();
  });
}

async function waitForWeb(url: string) {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the web process did not start');
}
