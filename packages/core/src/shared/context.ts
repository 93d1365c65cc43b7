import type { WorkLogger } from '@svc/contracts';
import type { Db } from '@svc/db';
import type { AiProvider } from '../ports/ai-provider.ts';
import type { CompletionWaiter } from '../ports/completion-waiter.ts';
import type { Mailer } from '../ports/mailer.ts';
import type { ServiceMetrics } from '../ports/metrics.ts';
import type { ObjectStorage } from '../ports/object-storage.ts';
import type { RenderEngine } from '../ports/render-engine.ts';
import type { ServiceConfig } from './config.ts';

/** The service's logger: the shape the render engine takes too (WorkLogger). */
export type Logger = WorkLogger;

export type Clock = () => Date;

/**
 * What every use-case receives: the database, the time, a logger, settings, and a port for
 * every other outside dependency. Nothing in core is a module singleton, so tests pass their
 * own clock, storage or engine instead of mocking modules.
 */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: ServiceConfig;
  /** Rendered files (local disk or an S3-compatible store). */
  storage: ObjectStorage;
  /** Wakes requests that wait for their job to end. */
  completions: CompletionWaiter;
  /** The browser side of renders; only the worker has a real one. */
  renderEngine: RenderEngine;
  /** Outgoing email; null when delivery is not configured (routes that mail answer 503 auth_unavailable). */
  mailer: Mailer | null;
  /** The AI model of template builds; null when no provider is configured (503 provider_unavailable). */
  aiProvider: AiProvider | null;
  /** The metric families the use-cases count into (this process's set; a test may pass its own). */
  metrics: ServiceMetrics;
}
