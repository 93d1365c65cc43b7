// Queue tasks held by a worker process that is gone go back to the queue; tasks of a live
// worker, tasks locked a moment ago and tasks of pools no worker reported stay as they are.
import { newWorkerPresence, recordWorkerPresence, releaseLostTaskLocks, workerApplicationName } from '@svc/core';
import { enqueue } from '../src/tasks/enqueue.ts';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;

describe('tasks locked by lost workers', () => {
  it('releases only the tasks of pools whose worker has no session left, once their lock has settled', async () => {
    const now = new Date();
    test.setNow(now);
    const live = { ...newWorkerPresence(ctx), queuePoolIds: ['pool-live'] };
    const gone = { ...newWorkerPresence(ctx), queuePoolIds: ['pool-gone', 'pool-gone-bulk'] };
    const goneJustNow = { ...newWorkerPresence(ctx), queuePoolIds: ['pool-gone-just-now'] };
    for (const presence of [live, gone, goneJustNow]) await recordWorkerPresence(ctx, presence, 1);
    // the live worker's queue connection, under its application name
    const session = new pg.Client({ connectionString: test.url(), application_name: workerApplicationName(live) });
    await session.connect();
    try {
      const locks: [string, string, number][] = [
        ['task:live', 'pool-live', 60_000],
        ['task:gone-1', 'pool-gone', 60_000],
        ['task:gone-2', 'pool-gone', 30_000],
        ['task:gone-bulk', 'pool-gone-bulk', 30_000],
        ['task:gone-just-now', 'pool-gone-just-now', 1_000],
        ['task:unknown', 'pool-nobody-reported', 60_000],
      ];
      for (const [key, pool, agoMs] of locks) {
        await enqueue(ctx.db, 'webhook_attempt', { delivery_id: key.slice('task:'.length) }, { jobKey: key });
        await ctx.db.$executeRaw`UPDATE graphile_worker._private_jobs SET locked_by = ${pool}, locked_at = ${new Date(now.getTime() - agoMs)} WHERE key = ${key}`;
      }

      expect(await releaseLostTaskLocks(ctx)).toEqual(['pool-gone', 'pool-gone-bulk']);
      const rows = await ctx.db.$queryRaw<{ key: string; locked_by: string | null }[]>`SELECT key, locked_by FROM graphile_worker.jobs ORDER BY key`;
      expect(Object.fromEntries(rows.map((row) => [row.key, row.locked_by]))).toEqual({
        'task:live': 'pool-live',
        'task:gone-1': null,
        'task:gone-2': null,
        'task:gone-bulk': null,
        'task:gone-just-now': 'pool-gone-just-now',
        'task:unknown': 'pool-nobody-reported',
      });
      // the live worker ends: its task is released at the next sweep
      await session.end();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await releaseLostTaskLocks(ctx)).toEqual(['pool-live']);
    } finally {
      await session.end().catch(() => {});
    }
  });

  it('a worker keeps the pools it reported as it reports more', async () => {
    const presence = newWorkerPresence(ctx);
    await recordWorkerPresence(ctx, presence, 1);
    await recordWorkerPresence(ctx, { ...presence, queuePoolIds: ['pool-main'] }, 1);
    await recordWorkerPresence(ctx, { ...presence, queuePoolIds: ['pool-main', 'pool-bulk'] }, 2);
    const row = await ctx.db.workerInstance.findUniqueOrThrow({ where: { id: presence.instanceId } });
    expect([...row.queuePoolIds].sort()).toEqual(['pool-bulk', 'pool-main']);
    expect(row.browserLaunches).toBe(2);
  });
});
