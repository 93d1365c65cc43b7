import { getServiceStatus, newWorkerPresence, recordWorkerPresence } from '@svc/core';
import { newId } from '../src/shared/ids.ts';
import { describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;
const minutes = (count: number) => count * 60_000;

describe('operator service status', () => {
  it('counts workers seen in three minutes, browser restarts of the last hour, the queue and failure rates by category', async () => {
    const now = new Date('2026-03-15T12:00:00Z');
    test.setNow(now);
    // three workers: reporting now (5 launches), two minutes ago (1 launch), and 30 minutes ago (3 launches)
    for (const [ago, launches] of [[0, 5], [2, 1], [30, 3]] as const) {
      test.setNow(new Date(now.getTime() - minutes(ago)));
      await recordWorkerPresence(ctx, newWorkerPresence(ctx), launches);
    }
    // one more worker, last seen two hours ago: neither seen nor counted
    test.setNow(new Date(now.getTime() - minutes(120)));
    await recordWorkerPresence(ctx, newWorkerPresence(ctx), 9);
    test.setNow(now);

    const account = await accountWith(ctx, { plan: 'scale' });
    const job = (status: 'queued' | 'running' | 'succeeded' | 'failed', finishedAgo: number | null, category: string | null = null) =>
      ctx.db.renderJob.create({
        data: {
          id: newId('pdf_'),
          accountId: account.accountId,
          kind: 'pdf',
          status,
          filename: 'doc',
          options: {},
          errorCategory: category,
          errorCode: category && 'code',
          finishedAt: finishedAgo === null ? null : new Date(now.getTime() - minutes(finishedAgo)),
        },
      });
    await job('queued', null);
    await job('queued', null);
    await job('running', null);
    await job('succeeded', 5);
    await job('succeeded', 10);
    await job('failed', 1, 'timeout');
    await job('failed', 20, 'renderer_failure');
    await job('failed', 90, 'timeout'); // older than the hour

    const status = await getServiceStatus(ctx);
    expect(status).toMatchObject({ queued: 2, running: 1, workersSeen: 2, browserRestarts: 4 + 0 + 2, finishedLastHour: 4 });
    expect(status.failureRates).toEqual([
      { category: 'renderer_failure', failed: 1, rate: 0.25 },
      { category: 'timeout', failed: 1, rate: 0.25 },
    ]);
  });
});
