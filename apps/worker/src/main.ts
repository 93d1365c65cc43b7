// The worker process: graphile-worker running the task catalog against the service database.
import { crontab, jsonLogger, systemClock } from '@svc/core';
import { createDb } from '@svc/db';
import { Logger, run } from 'graphile-worker';
import { buildTaskList } from './task-list.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is not set');

const logger = jsonLogger('worker');
const db = createDb({ url, poolSize: 5 });
const ctx = { db, clock: systemClock, logger };

const runner = await run({
  connectionString: url,
  concurrency: Number(process.env.SVC_WORKER_CONCURRENCY ?? 4),
  noHandleSignals: true,
  pollInterval: 1000,
  taskList: buildTaskList(ctx),
  crontab,
  logger: new Logger((scope) => (level, message, meta) => {
    if (level === 'debug') return;
    const write = level === 'error' ? logger.error : level === 'warning' ? logger.warn : logger.info;
    write(message, { ...scope, ...meta });
  }),
});
process.stdout.write('worker running\n');

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  // graceful: running tasks finish, nothing new is taken
  await runner.stop().catch((error: unknown) => logger.error('worker stop failed', { error: String(error) }));
  await db.$disconnect();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
await runner.promise;
