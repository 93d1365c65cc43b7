import { createServiceContext, createLogger, loadConfig, type ServiceContext } from '@svc/core';
import { createDb } from '@svc/db';

const holder = globalThis as typeof globalThis & { __svcServiceContext?: ServiceContext };

/** The web process's one service context, created on first use. */
export function serviceContext(): ServiceContext {
  if (!holder.__svcServiceContext) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set');
    holder.__svcServiceContext = createServiceContext({
      db: createDb({ url, poolSize: Number(process.env.SVC_WEB_DB_POOL ?? 10) }),
      databaseUrl: url,
      logger: createLogger('web'),
      config: loadConfig(),
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
