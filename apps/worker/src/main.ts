// The worker process: render slots claiming render jobs from the render queue, graphile-worker
// running the task catalog against the service database, one supervised Chromium pool, and
// (with SVC_WORKER_HEALTH_PORT) a small server for probes and metrics.
import {
  createServiceContext,
  crontab,
  createLogger,
  loadConfig,
  lockSettleMs,
  newWorkerPresence,
  recordWorkerPresence,
  recoverStaleRenders,
  recoverTemplateMessages,
  recoverWebhookDeliveries,
  releaseLostTaskLocks,
  reportReady,
  sealDataDir,
  startHeartbeat,
  stopWhenParentGone,
  warnIfEgressAllowlisted,
  workerApplicationName,
} from '@svc/core';
import { databaseReadiness, observeBrowserPool, observeQueues, startHealthServer } from '@svc/core/probes';
import { createDb } from '@svc/db';
import { EventEmitter } from 'node:events';
import { dirname } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Logger, run, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { chromiumEngine } from './render-engine.ts';
import { RenderSlots, wakeRenderSlots } from './render-slots.ts';
import { buildTaskList } from './task-list.ts';

// The worker holds some 70 MiB of live heap (modules, the browser's protocol state), and V8
// sets the next full collection at little more than that: with printed files of hundreds of
// kilobytes passing through, the heap reached it every few renders, and each mark-compact
// walks the whole heap. Letting the heap double before the next one makes them rarer.
setFlagsFromString('--heap-growing-percent=100');

const logger = createLogger('worker');
// a stop asked for while the worker starts waits until there is something to stop:
// the browser runs in a process group of its own and must not outlive the worker
let stopRequested = false;
let shutdown: (() => Promise<void>) | null = null;
const requestStop = () => {
  // readiness turns false first (health server below)
  stopRequested = true;
  void shutdown?.();
};
process.on('SIGTERM', requestStop);
process.on('SIGINT', requestStop);
process.on('SIGHUP', requestStop);
stopWhenParentGone(requestStop);
const config = loadConfig();
const url = config.databaseUrl;
if (!url) throw new Error('DATABASE_URL is not set');
warnIfEgressAllowlisted(config, logger);
// the tenants' files are the service's user's only; the browser runs as another account
if (!config.s3) await sealDataDir(dirname(config.filesDir));
const db = createDb({ url, poolSize: 6 });
const renderEngine = chromiumEngine({ config, logger });
const ctx = createServiceContext({ db, logger, config, renderEngine });
const { lazyBrowser } = config.worker;
let renderWake: Awaited<ReturnType<typeof wakeRenderSlots>> | null = null;
const taskQueueListeners = new Set<string>();

// up before the browser and the queues, so liveness answers while the worker starts; ready once
// everything it needs to take work is there (a lazy browser starts with the first render)
observeQueues(ctx.metrics, db);
observeBrowserPool(ctx.metrics, renderEngine.poolStatus);
const health = config.workerHealth
  ? await startHealthServer({
      ...config.workerHealth,
      metricsToken: config.metricsToken,
      metrics: ctx.metrics,
      readiness: async () =>
        stopRequested
          ? { accepting: false }
          : {
              accepting: true,
              ...(await databaseReadiness(db)),
              browser: lazyBrowser || renderEngine.poolStatus()?.browserPid != null,
              queue_listener: renderWake?.listening() ?? false,
              task_queue_listener: taskQueueListeners.size > 0,
            },
    })
  : null;
if (health) logger.info('worker health listening', { port: health.port });

// the browser starts with the worker so the first render finds it warm
if (!lazyBrowser) await renderEngine.start();

// this process's row: its queue connections carry its name, and its queue pools are recorded as
// soon as graphile-worker makes them, so a worker that outlives this one can release what it held
const presence = newWorkerPresence(ctx);
const reportPresence = async () =>
  recordWorkerPresence(ctx, presence, await renderEngine.browserLaunches()).catch((error: unknown) => logger.warn('presence report failed', { error: String(error) }));
await reportPresence();
const queueEvents: WorkerEvents = new EventEmitter();
queueEvents.on('pool:create', ({ workerPool }) => {
  presence.queuePoolIds.push(workerPool.id);
  void reportPresence();
});
// graphile-worker's LISTEN connection (new tasks: webhook deliveries, batches, AI messages); it
// reconnects by itself and polls meanwhile
queueEvents.on('pool:listen:success', ({ workerPool }) => taskQueueListeners.add(workerPool.id));
queueEvents.on('pool:listen:error', ({ workerPool }) => taskQueueListeners.delete(workerPool.id));
queueEvents.on('pool:listen:release', ({ workerPool }) => taskQueueListeners.delete(workerPool.id));
// every queue connection under this process's name
const queuePool = new pg.Pool({ connectionString: url, application_name: workerApplicationName(presence), max: 10 });
// idle connections report errors to the pool, checked-out ones to themselves; without both
// handlers a dropped connection would end the process (graphile-worker warns of either missing)
queuePool.on('error', (error) => logger.warn('queue connection failed', { error: error.message }));
queuePool.on('connect', (client) => client.on('error', (error) => logger.warn('queue connection failed', { error: error.message })));
const queueLogger = new Logger((scope) => (level, message, meta) => {
  if (level === 'debug') return;
  // a line per successful task (every render, every cron tick) is noise; failures still log
  if (level === 'info' && meta?.success === true) return;
  const write = level === 'error' ? logger.error : level === 'warning' ? logger.warn : logger.info;
  // errors carry whole client objects; their message is what an operator needs
  const fields = Object.fromEntries(Object.entries({ ...scope, ...meta }).map(([key, value]: [string, unknown]) => [key, value instanceof Error ? value.message : value]));
  write(message, fields);
});
const runnerOptions = { pgPool: queuePool, events: queueEvents, noHandleSignals: true, pollInterval: 1000, logger: queueLogger };

const runner = await run({ ...runnerOptions, concurrency: config.worker.taskConcurrency, taskList: buildTaskList(ctx), crontab });

// Render jobs are claimed from the render queue by slots of their own: single renders, and group
// members (as many as the browser pool has slots: bulk work holds all but one of them, or all of
// them while no single render is about, and has the next one ready).
const renderSlots = {
  single: new RenderSlots(ctx, { bulk: false, slots: config.worker.renderSlots }),
  bulk: new RenderSlots(ctx, { bulk: true, slots: config.worker.bulkSlots }),
};
// tasks a vanished worker held and jobs it was rendering are taken up at once rather than at the
// next cron tick, and once more when locks taken just before it vanished have settled (a worker
// restarted right after a crash)
const releaseLost = () => releaseLostTaskLocks(ctx).catch((error: unknown) => logger.error('task lock release failed', { error: String(error) }));
await releaseLost();
const releaseSettled = setTimeout(() => void releaseLost(), lockSettleMs + 1_000);
releaseSettled.unref();
await recoverStaleRenders(ctx).catch((error: unknown) => logger.error('recovery failed', { error: String(error) }));
await recoverWebhookDeliveries(ctx).catch((error: unknown) => logger.error('webhook recovery failed', { error: String(error) }));
await recoverTemplateMessages(ctx).catch((error: unknown) => logger.error('AI message recovery failed', { error: String(error) }));
renderWake = await wakeRenderSlots(url, workerApplicationName(presence), renderSlots, logger);
logger.info('worker running');
reportReady();

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
  clearTimeout(releaseSettled);
  stopHeartbeat();
  clearInterval(presenceTimer);
  // graceful: nothing new is taken and running renders and tasks finish; past the bound, renders
  // go back to the render queue and graphile-worker hands tasks back to its queue
  await renderWake?.close();
  const handBack = setTimeout(() => {
    logger.warn('tasks still running at shutdown are handed back', { afterMs: handBackAfterMs });
    void runner.kill().catch(() => {});
  }, handBackAfterMs);
  await Promise.all([
    renderSlots.single.stop(handBackAfterMs),
    renderSlots.bulk.stop(handBackAfterMs),
    runner.stop().catch((error: unknown) => logger.warn('worker stopped with tasks handed back', { error: String(error) })),
  ]);
  clearTimeout(handBack);
  // the probe server goes before the database, so no scrape opens a connection again
  await health?.close();
  // the database goes before the browser, so a render cut short cannot record itself as failed
  await queuePool.end().catch(() => {});
  await db.$disconnect();
  await renderEngine.close().catch(() => {});
  process.exit(0);
};
if (stopRequested) void shutdown();
await runner.promise;
