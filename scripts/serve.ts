// `npm start`: prepares the database (embedded unless DATABASE_URL is set), applies
// migrations, opens the demo account on first boot, then runs the web and worker
// processes in production mode until stopped.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServiceContext, ensureDemoAccount, jsonLogger, loadConfig } from '@svc/core';
import { createDb } from '@svc/db';
import { migrate, resolveDatabase } from '@svc/db/admin';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const publicUrl = (process.env.SVC_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
const logger = jsonLogger('start');
const say = (line: string) => process.stdout.write(`${line}\n`);

const database = await resolveDatabase({
  url: process.env.DATABASE_URL,
  dataDir: process.env.SVC_DATA_DIR ?? '.data',
  port: process.env.SVC_EMBEDDED_PG_PORT ? Number(process.env.SVC_EMBEDDED_PG_PORT) : undefined,
  log: (message) => logger.info(message),
});
say(database.embedded ? 'Database: embedded PostgreSQL' : 'Database: DATABASE_URL');
const { applied } = await migrate(database.url);
if (applied.length > 0) say(`Migrations applied: ${applied.join(', ')}`);

const db = createDb({ url: database.url, poolSize: 2 });
const demo = await ensureDemoAccount(createServiceContext({ db, logger, config: loadConfig() }));
await db.$disconnect();

const env = { ...process.env, DATABASE_URL: database.url, PORT: String(port), SVC_PUBLIC_URL: publicUrl, NODE_ENV: 'production' as const };
const tsx = ['--import', 'tsx'];
const children: ChildProcess[] = [
  spawn(process.execPath, [...tsx, 'apps/web/src/server.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] }),
  spawn(process.execPath, [...tsx, 'apps/worker/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] }),
];

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
  await database.stop();
  process.exit(code);
}
for (const child of children) {
  child.once('exit', (code) => {
    if (!stopping) {
      logger.error('a service process exited; stopping', { code });
      void stop(1);
    }
  });
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

await waitForWeb(`http://127.0.0.1:${port}/v1/openapi.json`);
say(`Rendering service ready at ${publicUrl}`);
if (demo) {
  say(`Demo account ${demo.account_id} created with trial credits.`);
  say(`Demo API key (shown once, keep it): ${demo.api_key}`);
  say(`Try: curl -H "Authorization: Bearer ${demo.api_key}" ${publicUrl}/v1/keys`);
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
