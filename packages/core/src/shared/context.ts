import type { Db } from '@svc/db';
import { smtpMailer } from '../mail/smtp-mailer.ts';
import { openAiCompatibleProvider } from '../ai/openai-compatible-provider.ts';
import type { AiProvider } from '../ports/ai-provider.ts';
import type { CompletionWaiter } from '../ports/completion-waiter.ts';
import type { Mailer } from '../ports/mailer.ts';
import type { ObjectStorage } from '../ports/object-storage.ts';
import { noRenderEngine, type RenderEngine } from '../ports/render-engine.ts';
import { PgCompletionWaiter } from '../renders/completion-waiter.ts';
import { storageFromConfig } from '../storage/storage-from-config.ts';
import type { ServiceConfig } from './config.ts';

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

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
}

export const systemClock: Clock = () => new Date();

export interface CreateServiceContextOptions extends Partial<Omit<ServiceContext, 'db' | 'config' | 'logger'>> {
  db: Db;
  config: ServiceConfig;
  logger: Logger;
  /** The database URL the completion waiter listens on; needed only by processes that wait for jobs. */
  databaseUrl?: string;
}

/** A context with the production port for anything not given: the system clock, the configured storage, and so on. */
export function createServiceContext(options: CreateServiceContextOptions): ServiceContext {
  const { databaseUrl, ...given } = options;
  return {
    clock: systemClock,
    storage: given.storage ?? storageFromConfig(options.config),
    completions: databaseUrl ? new PgCompletionWaiter(databaseUrl, options.logger) : pollingCompletions,
    renderEngine: noRenderEngine,
    mailer: options.config.email ? smtpMailer(options.config.email) : null,
    aiProvider: options.config.ai
      ? openAiCompatibleProvider({ settings: options.config.ai, policy: { allowlist: options.config.egressAllowlist }, logger: options.logger })
      : null,
    ...given,
  };
}

/** A waiter without a listening connection: it polls once a second. For processes that rarely wait. */
const pollingCompletions: CompletionWaiter = {
  async wait(_jobId, timeoutMs, isFinished) {
    for (let waited = 0; waited < timeoutMs && !(await isFinished()); waited += 1000) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, timeoutMs - waited)));
    }
  },
  close: async () => {},
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
