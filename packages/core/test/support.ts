import { createAccount, createServiceContext, loadConfig, type ServiceContext, silentLogger } from '@svc/core';
import type { CreateAccountOptions } from '../src/accounts/create-account.ts';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, inject } from 'vitest';

/** A database of its own for the calling test file, and a context around it with a settable clock. */
export function useTestContext() {
  const state: { database?: TestDatabase; now: Date } = { now: new Date('2026-03-15T12:00:00Z') };
  const ctx = {} as ServiceContext;
  beforeAll(async () => {
    state.database = await createTestDatabase(inject('dbServerUrl'));
    const database = state.database;
    Object.assign(ctx, createServiceContext({ db: database.db, databaseUrl: database.url, clock: () => state.now, logger: silentLogger, config: loadConfig() }));
  });
  afterAll(async () => {
    await ctx.completions?.close();
    await state.database?.drop();
  });
  return {
    ctx,
    url: () => state.database!.url,
    setNow: (time: Date) => {
      state.now = time;
    },
  };
}

export async function accountWith(ctx: ServiceContext, options: CreateAccountOptions) {
  const created = await createAccount(ctx, options);
  const key = await ctx.db.apiKey.findFirstOrThrow({ where: { accountId: created.accountId } });
  return { kind: 'api_key' as const, accountId: created.accountId, keyId: key.id, plan: options.plan, monthlyOverageCap: key.monthlyOverageCap };
}
