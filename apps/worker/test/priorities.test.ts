// Task priorities: whatever waits in the queue, a runner takes interactive work (a webhook
// delivery) before the cron sweeps queued earlier.
import { crontab, taskCatalog } from '@svc/core';
import { enqueue } from '../../../packages/core/src/tasks/enqueue.ts';
import { taskPriority } from '../../../packages/core/src/tasks/catalog.ts';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { Logger, parseCrontab, runOnce, type Task } from 'graphile-worker';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase(inject('dbServerUrl'));
});

afterAll(async () => {
  await database.drop();
});

describe('task priorities', () => {
  it('runs webhook deliveries queued last before sweeps queued earlier', async () => {
    // queued while no worker runs, oldest first: two sweeps, then two deliveries
    await enqueue(database.db, 'expire_render_files', {});
    await enqueue(database.db, 'prune_webhook_log', {});
    for (const id of ['delivery_1', 'delivery_2']) await enqueue(database.db, 'webhook_attempt', { delivery_id: id });

    const taken: string[] = [];
    const record =
      (name: string): Task =>
      async (payload) => {
        taken.push((payload as { delivery_id?: string }).delivery_id ?? name);
      };
    // a pool of the test's own, ended before the database is dropped: runOnce leaves its pool's
    // idle connections to end later, and a drop that terminates one is an unhandled error
    const pgPool = new pg.Pool({ connectionString: database.url, max: 2 });
    pgPool.on('error', () => {});
    try {
      await runOnce({ pgPool, concurrency: 1, taskList: { webhook_attempt: record('attempt'), expire_render_files: record('expire'), prune_webhook_log: record('prune') }, logger: new Logger(() => () => {}) });
    } finally {
      await pgPool.end();
    }

    expect(taken).toEqual(['delivery_1', 'delivery_2', 'expire', 'prune']);
  });

  it('schedules every cron task with the attempts and priority of its catalog entry', () => {
    const items = parseCrontab(crontab);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      const entry = taskCatalog[item.task as keyof typeof taskCatalog];
      expect(item.options).toMatchObject({ maxAttempts: entry.maxAttempts, priority: entry.priority });
      expect(entry.priority).toBeGreaterThan(taskPriority.interactive);
    }
  });
});
