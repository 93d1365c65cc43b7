// Adapt from a process without a browser (the web process): the source goes to a worker through
// an adapt_requests row and an adapt_layout task, and the request waits for the answer until its
// time limit. Here no worker runs on the database, so the limit is always exceeded.
import { createServiceContext, loadConfig, runAdaptRequest, silentLogger } from '@svc/core';
import { adaptSource } from '../../../packages/core/src/templates/adapt-template.ts';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adaptCanvases } from '../../../e2e/support/canvases.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(inject('dbServerUrl'));
});

afterAll(async () => {
  await database.drop();
});

const queuedLayouts = async () => {
  const [row] = await database.db.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM graphile_worker.jobs WHERE task_identifier = 'adapt_layout'`;
  return row?.count ?? 0;
};

describe('adapt through the queue', () => {
  it('answers resize_timeout when no worker lays the source out within the limit, and keeps nothing', async () => {
    const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: { ...loadConfig({}), adaptTimeoutMs: 500 }, databaseUrl: database.url });
    try {
      await expect(adaptSource(ctx, adaptCanvases.flow!, [{ width: 1080, height: 1920 }], 'acct_0123456789abcdef0123456789abcdef')).rejects.toMatchObject({
        code: 'resize_timeout',
      });
      expect(await database.db.adaptRequest.count()).toBe(0);
      expect(await queuedLayouts()).toBe(0);
    } finally {
      await ctx.completions.close();
    }
  });

  it('a worker leaves alone a request that gave up, and removes rows a vanished web process left', async () => {
    // this context has no browser: laying anything out would throw
    const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig({}) });
    const now = Date.now();
    const row = (id: string, deadlineAgoMs: number) => database.db.$executeRaw`
      INSERT INTO adapt_requests (id, account_id, source, sizes, deadline, created_at)
      VALUES (${id}, NULL, ${adaptCanvases.flow!}, '[{"width": 400, "height": 400}]'::jsonb, ${new Date(now - deadlineAgoMs)}, ${new Date(now - deadlineAgoMs - 10_000)})`;
    await row('adapt_gaveup', 1_000);
    await row('adapt_abandoned', 120_000);
    await runAdaptRequest(ctx, { adaptId: 'adapt_gaveup' });
    const left = await database.db.adaptRequest.findMany({ select: { id: true, result: true } });
    expect(left).toEqual([{ id: 'adapt_gaveup', result: null }]);
    await runAdaptRequest(ctx, { adaptId: 'adapt_missing' });
    expect(await database.db.adaptRequest.count()).toBe(1);
  });
});
