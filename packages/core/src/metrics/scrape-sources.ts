// Gauges read when Prometheus scrapes: the queues from the database (one cheap grouped query
// each, shared by the gauges of one scrape) and the worker's browser pool from its own state.
// Only the worker registers them: the web process has no pool, and one process per deployment
// answering for the database-wide queues is enough (several workers report the same values).
import type { Db } from '@svc/db';
import type { ServiceMetrics } from '../ports/metrics.ts';
import { scrapedCounter, scrapedGauge } from './metrics.ts';

/** A read shared by every gauge of one scrape instead of one query per gauge. */
function sharedRead<T>(read: () => Promise<T>, freshMs = 1_000): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = performance.now();
    if (!last || now - last.at > freshMs) {
      last = { at: now, value: read() };
      last.value.catch(() => (last = null));
    }
    return last.value;
  };
}

interface QueueRow {
  queue: string;
  depth: number;
  oldest: number;
}

/** The render queue (single renders, group members) and graphile-worker's due tasks. */
export function observeQueues(metrics: ServiceMetrics, db: Db): void {
  const renderQueue = sharedRead(
    () => db.$queryRaw<QueueRow[]>`
      SELECT CASE WHEN q.bulk THEN 'bulk' ELSE 'single' END AS queue, count(*)::int AS depth,
             COALESCE(EXTRACT(EPOCH FROM now() - min(j.created_at)), 0)::float8 AS oldest
        FROM render_queue q JOIN render_jobs j ON j.id = q.job_id
       GROUP BY q.bulk`,
  );
  // due and not taken: scheduled retries and future cron runs are not a backlog
  const taskQueue = sharedRead(
    () => db.$queryRaw<QueueRow[]>`
      SELECT task_identifier AS queue, count(*)::int AS depth, EXTRACT(EPOCH FROM now() - min(run_at))::float8 AS oldest
        FROM graphile_worker.jobs
       WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts
       GROUP BY task_identifier`,
  );
  const renderQueues = ['single', 'bulk'];
  scrapedGauge(metrics.registry, 'svc_render_queue_depth', 'Render jobs waiting in the render queue, by queue (single, bulk: group members).', ['queue'], async (gauge) => {
    const rows = await renderQueue();
    for (const queue of renderQueues) gauge.set({ queue }, rows.find((row) => row.queue === queue)?.depth ?? 0);
  });
  scrapedGauge(metrics.registry, 'svc_render_queue_oldest_age_seconds', 'Age of the oldest job in the render queue (since its admission), by queue; 0 when empty.', ['queue'], async (gauge) => {
    const rows = await renderQueue();
    for (const queue of renderQueues) gauge.set({ queue }, rows.find((row) => row.queue === queue)?.oldest ?? 0);
  });
  scrapedGauge(metrics.registry, 'svc_task_queue_depth', 'Due graphile-worker tasks not yet taken, by task.', ['task'], async (gauge) => {
    gauge.reset();
    for (const row of await taskQueue()) gauge.set({ task: row.queue }, row.depth);
  });
  scrapedGauge(metrics.registry, 'svc_task_queue_oldest_age_seconds', 'How long the longest-waiting due graphile-worker task has been due, by task.', ['task'], async (gauge) => {
    gauge.reset();
    for (const row of await taskQueue()) gauge.set({ task: row.queue }, row.oldest);
  });
}

/** What the worker's browser pool reports of itself (the renderer's status). */
export interface BrowserPoolStatus {
  /** null while no browser runs */
  browserPid: number | null;
  slots: number;
  running: number;
  queued: number;
  warmSandboxes: number;
  spareSandboxes: number;
  /** browsers replaced, by why the one before was retired */
  restarts: Record<'recycle' | 'crash' | 'unresponsive', number>;
  /** browsers that went away on their own */
  crashes: number;
}

/** The pool's gauges and counters; `read` answers null before the pool has started. */
export function observeBrowserPool(metrics: ServiceMetrics, read: () => BrowserPoolStatus | null): void {
  const gauge = (name: string, help: string, value: (status: BrowserPoolStatus) => number) =>
    scrapedGauge(metrics.registry, name, help, [], (metric) => {
      const status = read();
      metric.set(status ? value(status) : 0);
    });
  gauge('svc_browser_up', 'Whether a browser is running (1) or not (0).', (status) => (status.browserPid === null ? 0 : 1));
  gauge('svc_browser_slots', 'Renders the pool runs at once.', (status) => status.slots);
  gauge('svc_browser_slots_busy', 'Slots held by a render now.', (status) => status.running);
  gauge('svc_browser_waiting', 'Renders waiting for a free slot.', (status) => status.queued);
  gauge('svc_browser_warm_sandboxes', 'Idle sandboxes kept for the account that used them last.', (status) => status.warmSandboxes);
  gauge('svc_browser_spare_sandboxes', 'Fresh sandboxes made ready ahead of the next render.', (status) => status.spareSandboxes);
  scrapedCounter(metrics.registry, 'svc_browser_restarts_total', 'Browsers launched to replace one, by why it was retired (recycle after N renders, crash, unresponsive).', ['reason'], () =>
    Object.entries(read()?.restarts ?? {}).map(([reason, total]) => [{ reason }, total]),
  );
  scrapedCounter(metrics.registry, 'svc_browser_crashes_total', 'Browsers that went away on their own (crash, out-of-memory kill, signal).', [], () => [[{}, read()?.crashes ?? 0]]);
}

