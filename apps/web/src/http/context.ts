import { CompletionWaiter, jsonLogger, loadConfig, type ServiceContext, systemClock } from '@svc/core';
import { createDb } from '@svc/db';

const holder = globalThis as typeof globalThis & { __svcServiceContext?: ServiceContext; __svcCompletionWaiter?: CompletionWaiter };

/** The web process's one service context, created on first use. */
export function serviceContext(): ServiceContext {
  if (!holder.__svcServiceContext) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set');
    holder.__svcServiceContext = {
      db: createDb({ url, poolSize: Number(process.env.SVC_WEB_DB_POOL ?? 10) }),
      clock: systemClock,
      logger: jsonLogger('web'),
      config: loadConfig(),
    };
  }
  return holder.__svcServiceContext;
}

/** The process's one LISTEN connection for render completions. */
export function completionWaiter(): CompletionWaiter {
  const ctx = serviceContext();
  holder.__svcCompletionWaiter ??= new CompletionWaiter(process.env.DATABASE_URL as string, ctx.logger);
  return holder.__svcCompletionWaiter;
}
