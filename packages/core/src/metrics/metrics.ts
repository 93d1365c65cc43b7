// Every metric family the service exports, in one place (docs/observability.md, Metrics, lists
// them). Counters and histograms move where their events happen (a render's finish, a webhook
// attempt's record, a template evaluation, an HTTP answer); gauges of the database and of the
// browser pool are read when Prometheus scrapes (scrape-sources.ts), never per event. Each
// process has its own registry and answers for what happened in it.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ServiceMetrics } from '../ports/metrics.ts';

/** Seconds buckets of a render in the browser: most take well under a second, the timeout is 30 s. */
const renderSeconds = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
/** Seconds buckets of waits that a backlog can stretch to minutes. */
const waitSeconds = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900];

/** A new set of the service's families in a registry of its own. */
export function createMetrics(): ServiceMetrics {
  const registry = new Registry();
  // event-loop lag, heap, RSS, open handles, GC: prom-client's standard process families
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    rendersFinished: new Counter({
      name: 'svc_renders_total',
      help: 'Render jobs that reached a terminal state, by kind (pdf, image), outcome (succeeded, failed, cancelled) and error category (none unless failed).',
      labelNames: ['kind', 'outcome', 'error_category'] as const,
      registers,
    }),
    renderDuration: new Histogram({
      name: 'svc_render_duration_seconds',
      help: 'From a job\'s first claim by a worker to its terminal state, by kind and outcome.',
      labelNames: ['kind', 'outcome'] as const,
      buckets: renderSeconds,
      registers,
    }),
    renderQueueWait: new Histogram({
      name: 'svc_render_queue_wait_seconds',
      help: 'From a job\'s admission to its first claim by a worker, by kind.',
      labelNames: ['kind'] as const,
      buckets: waitSeconds,
      registers,
    }),
    templateEvaluationDuration: new Histogram({
      name: 'svc_template_evaluation_seconds',
      help: 'Template evaluations in the sandbox, by outcome (ok, error).',
      labelNames: ['outcome'] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2],
      registers,
    }),
    templateEvaluationRefusals: new Counter({
      name: 'svc_template_evaluation_refusals_total',
      help: 'Template evaluations refused, by reason: the template error code, or evaluation_budget when the account\'s budget was spent.',
      labelNames: ['reason'] as const,
      registers,
    }),
    adaptSizes: new Counter({
      name: 'svc_adapt_sizes_total',
      help: 'Canvas sizes laid out by adapt in this process\'s browser (adapt requests, dashboard thumbnails and image packs), by outcome (laid_out, failed).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'svc_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (delivered, failed) and failure (none, or the egress failure: timeout, status, refused address, ...).',
      labelNames: ['outcome', 'failure'] as const,
      registers,
    }),
    webhookDeliveryLag: new Histogram({
      name: 'svc_webhook_delivery_lag_seconds',
      help: 'From a delivery\'s creation (its event) to the attempt that delivered it.',
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600, 21600, 86400],
      registers,
    }),
    creditChanges: new Counter({
      name: 'svc_credits_total',
      help: 'Credits reserved at admission, settled by a succeeded job, released by a failed or cancelled one.',
      labelNames: ['change'] as const,
      registers,
    }),
    httpRequests: new Counter({
      name: 'svc_http_requests_total',
      help: 'HTTP answers of the web process, by route (the operationId of a /v1 operation, or a fixed name for the rest), method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
    httpRequestDuration: new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route and method.',
      labelNames: ['route', 'method'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
  };
}

// One set per process: the web's Next routes are compiled into bundles of their own, and the
// families must be the same objects there as in the server that answers /metrics.
const holder = globalThis as typeof globalThis & { __svcMetrics?: ServiceMetrics };

/** This process's set, made on first use; the composition root hands it to the service context. */
export function processMetrics(): ServiceMetrics {
  return (holder.__svcMetrics ??= createMetrics());
}

/**
 * A gauge whose values are set by `collect` when the registry is scraped (made once per name).
 * A read that fails (the database is away) leaves the gauge without samples for that scrape,
 * rather than failing the whole scrape or repeating stale values.
 */
export function scrapedGauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  collect: (gauge: Gauge<L>) => Promise<void> | void,
): void {
  if (registry.getSingleMetric(name)) return;
  new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      try {
        await collect(this);
      } catch {
        this.reset();
      }
    },
  });
}

/** A counter whose total is kept elsewhere (the browser pool counts its own restarts) and copied at scrape time. */
export function scrapedCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  totals: () => [Partial<Record<L, string>>, number][],
): void {
  if (registry.getSingleMetric(name)) return;
  new Counter<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, total] of totals()) this.inc(labels, total);
    },
  });
}
