import { getUsageOverview, updateApiKey } from '@svc/core';
import { newId } from '../src/shared/ids.ts';
import { describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;

async function finishedJob(accountId: string, status: 'succeeded' | 'failed', finishedAt: Date, extra: { errorCode?: string; hiddenAt?: Date } = {}) {
  return ctx.db.renderJob.create({
    data: {
      id: newId('pdf_'),
      accountId,
      kind: 'pdf',
      status,
      credit: status === 'succeeded' ? 'settled' : 'released',
      filename: 'doc',
      options: {},
      createdAt: new Date(finishedAt.getTime() - 1000),
      finishedAt,
      ...(status === 'failed' ? { errorCode: extra.errorCode ?? 'render_timeout', errorCategory: 'timeout' } : {}),
      ...(extra.hiddenAt ? { hiddenAt: extra.hiddenAt } : {}),
    },
  });
}

describe('getUsageOverview', () => {
  it('counts finished renders per UTC day over 30 days, lists failures newest first and overage against key caps', async () => {
    test.setNow(new Date('2026-03-15T12:00:00Z'));
    const principal = await accountWith(ctx, { plan: 'scale', credits: 10 });
    const other = await accountWith(ctx, { plan: 'scale', credits: 10 });
    await finishedJob(principal.accountId, 'succeeded', new Date('2026-03-15T00:10:00Z'));
    await finishedJob(principal.accountId, 'succeeded', new Date('2026-03-14T23:59:00Z'));
    await finishedJob(principal.accountId, 'failed', new Date('2026-03-14T10:00:00Z'), { errorCode: 'render_timeout' });
    await finishedJob(principal.accountId, 'failed', new Date('2026-03-13T10:00:00Z'), { errorCode: 'hidden_one', hiddenAt: new Date() });
    await finishedJob(principal.accountId, 'succeeded', new Date('2026-02-13T10:00:00Z')); // 30 days back: outside
    await finishedJob(other.accountId, 'succeeded', new Date('2026-03-15T01:00:00Z'));
    await updateApiKey(ctx, { accountId: principal.accountId, keyId: principal.keyId, changes: { monthly_overage_cap: 40 } });
    await ctx.db.overageUsage.create({ data: { accountId: principal.accountId, keyId: principal.keyId, period: '2026-03', used: 12 } });
    await ctx.db.overageUsage.create({ data: { accountId: principal.accountId, keyId: principal.keyId, period: '2026-02', used: 99 } });

    const overview = await getUsageOverview(ctx, { accountId: principal.accountId });
    expect(overview.renderDays).toHaveLength(30);
    expect(overview.renderDays[0]).toEqual({ day: '2026-02-14', succeeded: 0, failed: 0 });
    expect(overview.renderDays.at(-1)).toEqual({ day: '2026-03-15', succeeded: 1, failed: 0 });
    expect(overview.renderDays.at(-2)).toEqual({ day: '2026-03-14', succeeded: 1, failed: 1 });
    // a failure removed from history still counted on its day, but is not listed
    expect(overview.renderDays.at(-3)).toEqual({ day: '2026-03-13', succeeded: 0, failed: 1 });
    expect(overview.failures.map((failure) => failure.errorCode)).toEqual(['render_timeout']);
    expect(overview.period).toBe('2026-03');
    expect(overview.overageByKey).toEqual([{ keyId: principal.keyId, name: expect.any(String), displayPrefix: expect.any(String), used: 12, cap: 40 }]);
  });
});
