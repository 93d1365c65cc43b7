// The worker process: graphile-worker running the task catalog against the service
// database, with one supervised Chromium pool for render jobs.
import {
  createServiceContext,
  crontab,
  jsonLogger,
  loadConfig,
  newWorkerPresence,
  recordWorkerPresence,
  recoverStaleRenders,
  recoverTemplateMessages,
  recoverWebhookDeliveries,
  releaseLostTaskLocks,
  startHeartbeat,
  warnIfEgressAllowlisted,
  workerApplicationName,
} from '@svc/core';
import { createDb } from '@svc/db';
import { EventEmitter } from 'node:events';
import { Logger, run, type WorkerEvents } from 'graphile-worker';
import { chromiumEngine } from './render-engine.ts';
import { buildTaskList } from './task-list.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is not set');

const logger = jsonLogger('worker');
// a stop asked for while the worker starts waits until there is something to stop:
// the browser runs in a process group of its own and must not outlive the worker
let stopRequested = false;
let shutdown: (() => Promise<void>) | null = null;
const requestStop = () => {
  stopRequested = true;
  void shutdown?.();
};
process.on('SIGTERM', requestStop);
process.on('SIGINT', requestStop);
const config = loadConfig();
warnIfEgressAllowlisted(config, logger);
const db = createDb({ url, poolSize: 6 });
const renderEngine = chromiumEngine({ config, logger });
const ctx = createServiceContext({ db, logger, config, renderEngine });

// the browser starts with the worker so the first render finds it warm
if (process.env.SVC_WORKER_LAZY_BROWSER !== '1') await renderEngine.start();

// this process's row: its queue connections carry its name, and its queue pool is recorded as
// soon as the runner makes it, so a worker that outlives this one can release what it held
const presence = newWorkerPresence(ctx);
const reportPresence = async () =>
  recordWorkerPresence(ctx, presence, await renderEngine.browserLaunches()).catch((error: unknown) => logger.warn('presence report failed', { error: String(error) }));
await reportPresence();
const queueEvents: WorkerEvents = new EventEmitter();
queueEvents.on('pool:create', ({ workerPool }) => {
  presence.queuePoolId = workerPool.id;
  void reportPresence();
});
const queueUrl = new URL(url);
queueUrl.searchParams.set('application_name', workerApplicationName(presence));

const runner = await run({
  connectionString: queueUrl.toString(),
  events: queueEvents,
  concurrency: Number(process.env.SVC_WORKER_CONCURRENCY ?? 4),
  noHandleSignals: true,
  pollInterval: 1000,
  taskList: buildTaskList(ctx),
  crontab,
  logger: new Logger((scope) => (level, message, meta) => {
    if (level === 'debug') return;
    // a line per successful task (every render, every cron tick) is noise; failures still log
    if (level === 'info' && meta?.success === true) return;
    const write = level === 'error' ? logger.error : level === 'warning' ? logger.warn : logger.info;
    // errors carry whole client objects; their message is what an operator needs
    const fields = Object.fromEntries(Object.entries({ ...scope, ...meta }).map(([key, value]: [string, unknown]) => [key, value instanceof Error ? value.message : value]));
    write(message, fields);
  }),
});
// tasks a vanished worker held and jobs it was rendering are taken up at once rather than at the next cron tick
await releaseLostTaskLocks(ctx).catch((error: unknown) => logger.error('task lock release failed', { error: String(error) }));
await recoverStaleRenders(ctx).catch((error: unknown) => logger.error('recovery failed', { error: String(error) }));
await recoverWebhookDeliveries(ctx).catch((error: unknown) => logger.error('webhook recovery failed', { error: String(error) }));
await recoverTemplateMessages(ctx).catch((error: unknown) => logger.error('AI message recovery failed', { error: String(error) }));
process.stdout.write('worker running\n');

// Running tasks get as long as a render may take, plus time to store its file and finish it.
const handBackAfterMs = config.renderTimeoutMs + 15_000;

// one heartbeat a minute: the public uptime and status read them
const stopHeartbeat = startHeartbeat(ctx, 'worker');
// and this process's own row, with its browser launches, for the operator status
const presenceTimer = setInterval(reportPresence, 60_000);
presenceTimer.unref();

let stopping = false;
shutdown = async () => {
  if (stopping) return;
  stopping = true;
  stopHeartbeat();
  clearInterval(presenceTimer);
  // graceful: nothing new is taken and running tasks finish; past the bound, graphile-worker
  // hands their tasks back to the queue (a render's lease then lets recovery take it up)
  const handBack = setTimeout(() => {
    logger.warn('tasks still running at shutdown are handed back', { afterMs: handBackAfterMs });
    void runner.kill().catch(() => {});
  }, handBackAfterMs);
  await runner.stop().catch((error: unknown) => logger.warn('worker stopped with tasks handed back', { error: String(error) }));
  clearTimeout(handBack);
  // the database goes before the browser, so a render cut short cannot record itself as failed
  await db.$disconnect();
  await renderEngine.close().catch(() => {});
  process.exit(0);
};
if (stopRequested) void shutdown();
await runner.promise;
