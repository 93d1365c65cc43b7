// Task priorities: whatever waits in the queue, a runner takes interactive work (a single render)
// before the cron sweeps, and both before bulk work such as the members of a group render.
import { crontab, enqueue, taskCatalog, taskPriority } from '@svc/core';
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
  it('runs a single render queued last before a batch of bulk renders and a sweep queued earlier', async () => {
    // queued while no worker runs, oldest first: bulk renders, a sweep, then one single render
    for (const id of ['group_member_1', 'group_member_2']) {
      await enqueue(database.db, 'render_job', { job_id: id }, { priority: taskPriority.bulk });
    }
    await enqueue(database.db, 'expire_render_files', {});
    await enqueue(database.db, 'render_job', { job_id: 'single' });

    const taken: string[] = [];
    const record: Task = async (payload) => {
      const jobId = (payload as { job_id?: string }).job_id;
      taken.push(jobId ?? 'sweep');
    };
    // a pool of the test's own, ended before the database is dropped: runOnce leaves its pool's
    // idle connections to end later, and a drop that terminates one is an unhandled error
    const pgPool = new pg.Pool({ connectionString: database.url, max: 2 });
    pgPool.on('error', () => {});
    try {
      await runOnce({ pgPool, concurrency: 1, taskList: { render_job: record, expire_render_files: record }, logger: new Logger(() => () => {}) });
    } finally {
      await pgPool.end();
    }

    expect(taken).toEqual(['single', 'sweep', 'group_member_1', 'group_member_2']);
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
