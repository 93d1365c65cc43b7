// The service's metric families as the use-cases see them: a port of the ServiceContext, so a
// use-case counts into what its process gave it (metrics/metrics.ts makes the families;
// docs/observability.md, Metrics, lists them).
import type { Counter, Histogram, Registry } from 'prom-client';

export interface ServiceMetrics {
  /** What /metrics answers with: these families, the scrape-time gauges and the process's own. */
  registry: Registry;
  /** svc_renders_total */
  rendersFinished: Counter<'kind' | 'outcome' | 'error_category'>;
  /** svc_render_duration_seconds */
  renderDuration: Histogram<'kind' | 'outcome'>;
  /** svc_render_queue_wait_seconds */
  renderQueueWait: Histogram<'kind'>;
  /** svc_template_evaluation_seconds */
  templateEvaluationDuration: Histogram<'outcome'>;
  /** svc_template_evaluation_refusals_total */
  templateEvaluationRefusals: Counter<'reason'>;
  /** svc_adapt_sizes_total */
  adaptSizes: Counter<'outcome'>;
  /** svc_webhook_attempts_total */
  webhookAttempts: Counter<'outcome' | 'failure'>;
  /** svc_webhook_delivery_lag_seconds */
  webhookDeliveryLag: Histogram;
  /** svc_credits_total */
  creditChanges: Counter<'change'>;
  /** svc_http_requests_total */
  httpRequests: Counter<'route' | 'method' | 'status'>;
  /** svc_http_request_duration_seconds */
  httpRequestDuration: Histogram<'route' | 'method'>;
}
