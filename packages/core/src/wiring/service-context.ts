// The composition root of core: which adapter serves each port of the ServiceContext when a
// process gives none of its own. Nothing else in core imports this folder; the processes (web,
// worker, CLI, scripts) and the tests call it once at start.
import { delay } from '@svc/deadline';
import type { Db } from '@svc/db';
import { openAiCompatibleProvider } from '../ai/openai-compatible-provider.ts';
import { smtpMailer } from '../mail/smtp-mailer.ts';
import { processMetrics } from '../metrics/metrics.ts';
import type { CompletionWaiter } from '../ports/completion-waiter.ts';
import type { ObjectStorage } from '../ports/object-storage.ts';
import { noRenderEngine } from '../ports/render-engine.ts';
import { PgCompletionWaiter } from '../renders/completion-waiter.ts';
import type { ServiceConfig } from '../shared/config.ts';
import type { Clock, Logger, ServiceContext } from '../shared/context.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { S3Storage } from '../storage/s3-storage.ts';

export const systemClock: Clock = () => new Date();

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

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
    metrics: processMetrics(),
    ...given,
  };
}

/** The storage driver the settings name: an S3-compatible store when a bucket is set, else the local disk. */
export function storageFromConfig(config: ServiceConfig): ObjectStorage {
  if (config.s3) return new S3Storage(config.s3);
  return new LocalStorage(config.filesDir);
}

/** A waiter without a listening connection: it polls once a second. For processes that rarely wait. */
async function pollUntilFinished(timeoutMs: number, isFinished: () => Promise<boolean>): Promise<null> {
  for (let waited = 0; waited < timeoutMs && !(await isFinished()); waited += 1000) {
    await delay(Math.min(1000, timeoutMs - waited));
  }
  return null;
}

const pollingCompletions: CompletionWaiter = {
  wait: (_jobId, timeoutMs, isFinished) => pollUntilFinished(timeoutMs, isFinished),
  watch: async () => ({ wait: pollUntilFinished, cancel: () => {} }),
  waitForAdapt: async (_adaptId, timeoutMs, isAnswered) => void (await pollUntilFinished(timeoutMs, isAnswered)),
  close: async () => {},
};
