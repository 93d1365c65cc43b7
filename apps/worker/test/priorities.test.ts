// Task priorities: whatever waits in the queue, a runner takes interactive work (a single render)
// before the cron sweeps, and both before bulk work such as the members of a group render.
import { crontab, enqueue, taskCatalog, taskPriority } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { Logger, parseCrontab, runOnce, type Task } from 'graphile-worker';
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
    await runOnce({ connectionString: database.url, concurrency: 1, taskList: { render_job: record, expire_render_files: record }, logger: new Logger(() => () => {}) });

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
