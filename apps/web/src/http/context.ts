import { createServiceContext, createLogger, loadConfig, type ServiceContext } from '@svc/core';
import { createDb } from '@svc/db';

const holder = globalThis as typeof globalThis & { __svcServiceContext?: ServiceContext };

/** The web process's one service context, created on first use. */
export function serviceContext(): ServiceContext {
  if (!holder.__svcServiceContext) {
    const config = loadConfig();
    const url = config.databaseUrl;
    if (!url) throw new Error('DATABASE_URL is not set');
    holder.__svcServiceContext = createServiceContext({
      db: createDb({ url, poolSize: config.web.dbPoolSize }),
      databaseUrl: url,
      logger: createLogger('web'),
      config,
    });
  }
  return holder.__svcServiceContext;
}

/** Ends the context's database connections once no request uses them any more. */
export async function closeServiceContext(): Promise<void> {
  const ctx = holder.__svcServiceContext;
  if (!ctx) return;
  await ctx.completions.close();
  await ctx.db.$disconnect();
}
