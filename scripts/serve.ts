// `npm start`: prepares the database (embedded unless DATABASE_URL is set), applies
// migrations, opens the demo account on first boot, then runs the web and worker
// processes in production mode until stopped.
//
// Stopping (Ctrl-C, SIGTERM) goes in order: the web process stops accepting requests and
// answers those in flight, the worker lets running renders finish (or hands them back past
// a bound) and closes its browser, and only when both have exited does the embedded
// database stop. The database runs in a process group of its own so that a terminal's
// Ctrl-C, which reaches every process of the foreground group, does not stop it early.
// The same order follows when the process that started this one is gone (stopWhenParentGone).
//
// Output: stdout carries only the banner a person reads once the service is ready (its URL, and
// on first boot where the demo key and sign-in link are kept: files only this user can read, since
// a supervisor keeps stdout too); stderr carries the log, one JSON line per event, this process's
// and the web and worker processes' (relayed here, see relayOutput).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  createLogger,
  createServiceContext,
  createSignInLink,
  ensureDemoAccount,
  findDemoAccount,
  loadConfig,
  prettyLogLine,
  prettyLogs,
  redactSecrets,
  resealSecrets,
  sealDataDir,
  stopWhenParentGone,
  writeDemoCredentials,
  writeServiceAddress,
} from '@svc/core';
import { createDb } from '@svc/db';
import { type DatabaseHandle, migrate, resolveDatabase } from '@svc/db/admin';
import { serviceNodeArgs } from './service-process.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const logger = createLogger('start');

let database: DatabaseHandle | null = null;
const children: ChildProcess[] = [];
let stopping: Promise<void> | null = null;

function stop(code: number): Promise<void> {
  stopping ??= (async () => {
    for (const child of children) if (running(child)) child.kill('SIGTERM');
    await Promise.all(children.map(outputEnded));
    await database?.stop();
    logger.info('service stopped', { code });
    process.exit(code);
  })();
  return stopping;
}
// handled from the start, so a stop during set-up still ends the database it started
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));
stopWhenParentGone(() => void stop(0));

try {
  const config = loadConfig();
  const { dataDir, publicUrl } = config;
  const port = config.web.port;
  // the embedded cluster and the tenants' files: for the service's user only
  if (!config.databaseUrl || !config.s3) await sealDataDir(dataDir);
  database = await resolveDatabase({
    url: config.databaseUrl,
    dataDir,
    port: config.embeddedDatabase.port,
    tcp: config.embeddedDatabase.tcp,
    log: (message) => logger.info(message),
  });
  if (stopping) await stopping;
  logger.info('database ready', { database: database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL' });
  const { applied } = await migrate(database.url);
  if (applied.length > 0) logger.info('migrations applied', { migrations: applied });

  const db = createDb({ url: database.url, poolSize: 2 });
  const setupCtx = createServiceContext({ db, logger, config });
  // secrets stored before sealing, or under a key since rotated, are sealed under the current key
  const { resealed } = await resealSecrets(setupCtx);
  if (resealed > 0) logger.info('secrets sealed under the current key', { resealed });
  const demo = await ensureDemoAccount(setupCtx);
  const demoLink = demo ? await createSignInLink(setupCtx, { accountId: demo.accountId }) : null;
  // on later boots the banner still says how to sign in to the demo account
  const earlierDemo = demo ? null : await findDemoAccount(setupCtx);
  await db.$disconnect();
  // a data directory the service cannot write loses the key (the account is still reachable
  // through the sign-in-link command, and its Developers page makes new keys)
  const demoFiles = demo
    ? await writeDemoCredentials(dataDir, { apiKey: demo.apiKey, signInUrl: demoLink?.url ?? null }).catch((error: unknown) => {
        logger.warn('demo credentials not written', { error: error instanceof Error ? error.message : String(error) });
        return null;
      })
    : null;
  if (stopping) await stopping;

  // the processes write JSON; this one formats their lines for a terminal when asked to
  const env = { ...process.env, DATABASE_URL: database.url, PORT: String(port), SVC_PUBLIC_URL: publicUrl, NODE_ENV: 'production' as const, SVC_LOG_FORMAT: 'json' };
  const start = (script: string, component: string) => {
    const child = spawn(process.execPath, serviceNodeArgs(script), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    relayOutput(child, component);
    return child;
  };
  const web = start('apps/web/src/server.ts', 'web');
  const worker = start('apps/worker/src/main.ts', 'worker');
  children.push(web, worker);
  // should this process be killed outright, the one that started it finishes the stop: it waits
  // for the web and worker processes (they notice and stop in order) and then stops the database
  process.send?.({ service: { processes: [web.pid, worker.pid], database: database.serverPid ?? null } });
  for (const child of children) {
    child.once('exit', (code, signal) => {
      if (stopping) return;
      logger.error('a service process exited; stopping', { code, signal });
      void stop(1);
    });
  }

  await Promise.all([waitForReady(web), waitForReady(worker)]);
  await waitForWeb(`http://127.0.0.1:${port}/v1/openapi.json`);
  if (stopping) await stopping;
  // for the operator CLI run from this checkout: the links it prints use this address (a data
  // directory the service cannot write, as in a read-only container, only costs the CLI that)
  await writeServiceAddress(dataDir, {
    public_url: publicUrl,
    embedded_database_port: database.embedded ? Number(new URL(database.url).port) : null,
    started_at: new Date().toISOString(),
  }).catch((error: unknown) => logger.warn('service address not written', { error: error instanceof Error ? error.message : String(error) }));
  // one write, so whoever reads the ready line has the demo account's lines with it; they name
  // the files that hold its key and link, never the secrets themselves
  const lines = [`Rendering service ready at ${publicUrl}`];
  if (demo) lines.push(`Demo account ${demo.accountId} created with trial credits.`);
  if (demo && demoFiles) lines.push(`Demo API key (in a file only this user can read; keep it): ${demoFiles.apiKey}`, `Try: ${tryCommand(publicUrl, demoFiles.apiKey)}`);
  if (demo && !demoFiles) lines.push('Demo API key not saved (see the log): sign in with the command below and create a key on the Developers page.');
  if (demo && demoLink && demoFiles?.signInLink) {
    lines.push(`Sign in to the demo account in a browser with the link in ${demoFiles.signInLink} (one use, until ${demoLink.expiresAt.toISOString()})`);
  }
  if (demo) lines.push(`A new sign-in link, any time (from this checkout): ${signInLinkCommand(demo.accountId)}`);
  if (earlierDemo) lines.push(`A sign-in link for the demo account (from this checkout): ${signInLinkCommand(earlierDemo)}`);
  logger.info('service ready', { url: publicUrl, demoAccount: demo?.accountId });
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (error) {
  if (!stopping) {
    logger.error('start failed', { error: error instanceof Error ? error.message : String(error) });
    await stop(1);
  }
}

/**
 * The banner's first request, pasted as it is: renders a PDF from HTML and saves the file as
 * hello.pdf (the answer is the finished job; its download link serves the file). The key is
 * read from its file as the command runs, and Node reads the link out of the JSON, as whoever
 * ran `npm start` has it.
 */
function tryCommand(publicUrl: string, apiKeyFile: string): string {
  const render = `curl -s ${publicUrl}/v1/pdf -H "Authorization: Bearer $(cat ${shellWord(apiKeyFile)})" -H "Content-Type: application/json" -d '{"html": "<h1>Hello from the rendering service</h1>"}'`;
  const link = `node -p 'JSON.parse(fs.readFileSync(0, "utf8")).download.url'`;
  return `curl -sfo hello.pdf "$(${render} | ${link})" && echo "saved hello.pdf"`;
}

/** A path as one shell word: quoted only when it holds more than letters, digits and `_./-`. */
function shellWord(path: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** The operator CLI's command for a new sign-in link, as run from the checkout (it finds this service's address). */
function signInLinkCommand(accountId: string): string {
  return `npm run svc -- account sign-in-link ${accountId}`;
}

function running(child: ChildProcess) {
  return child.exitCode === null && child.signalCode === null;
}

/** Resolves once the process reports itself ready over its channel. */
function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new Error('a service process exited before it was ready'));
    child.once('message', () => {
      child.off('exit', onExit);
      resolve();
    });
    child.once('exit', onExit);
  });
}

/**
 * A child's output, line by line, into this process's log: its JSON lines as they are, and any
 * other line (a library writing on its own) as an event of the child's component, so every
 * line of the service's log is JSON.
 */
function relayOutput(child: ChildProcess, component: string) {
  const strays = createLogger(component);
  const relay = (stream: Readable | null, level: 'info' | 'warn') => {
    if (!stream) return;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      // the processes' loggers have redacted their lines already; this covers a library's own
      // JSON lines too, so nothing reaches the log around the one redaction
      if (isLogLine(line)) process.stderr.write(prettyLogs() ? prettyLogLine(redactSecrets(line)) : `${redactSecrets(line)}\n`);
      else if (line.trim() !== '') strays[level](line);
    });
  };
  relay(child.stdout, 'info');
  relay(child.stderr, 'warn');
}

function isLogLine(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const event: unknown = JSON.parse(line);
    return typeof event === 'object' && event !== null && 'level' in event && 'message' in event;
  } catch {
    return false;
  }
}

/** Resolves once the process has exited and its last lines are relayed. */
async function outputEnded(child: ChildProcess): Promise<void> {
  if (running(child)) await new Promise((resolve) => child.once('exit', resolve));
  if (child.stdout?.readableEnded !== false && child.stderr?.readableEnded !== false) return;
  // a grandchild that inherited the pipes could hold them open: the wait has a bound
  await Promise.race([new Promise((resolve) => child.once('close', resolve)), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
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
