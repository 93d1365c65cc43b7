import { DomainError, resetMonthlyCredits } from '@svc/core';
import { grantCredits } from '../src/credits/grant-credits.ts';
import { newId } from '../src/shared/ids.ts';
import { releaseCredit, settleCredit } from '../src/credits/finish-reservation.ts';
import { reserveCredits } from '../src/credits/reserve-credits.ts';
import type { Plan } from '@svc/db';
import { describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const { ctx, setNow } = useTestContext();

async function reserve(account: { accountId: string; keyId: string; plan: Plan }, cap: number | null = null) {
  const jobId = newId('pdf_');
  try {
    const [reservation] = await ctx.db.$transaction((tx) =>
      reserveCredits(tx, { accountId: account.accountId, plan: account.plan, keyId: account.keyId, overageCap: cap, holder: { jobId }, now: ctx.clock(), metrics: ctx.metrics }),
      // twenty at once queue for the pool's connections: on a busy machine that can take seconds
      { maxWait: 60_000, timeout: 60_000 },
    );
    return { ok: true as const, jobId, source: reservation!.source };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false as const, code: error.code };
    throw error;
  }
}

async function balances(accountId: string) {
  const rows = await ctx.db.creditBalance.findMany({ where: { accountId } });
  return Object.fromEntries(rows.map((row) => [row.bucket, row.balance]));
}

describe('credit reservations', () => {
  it('never lets concurrent reservations spend more than the balance', async () => {
    const account = await accountWith(ctx, { plan: 'free', credits: 5, bucket: 'trial' });
    const results = await Promise.all(Array.from({ length: 20 }, () => reserve(account)));
    expect(results.filter((result) => result.ok)).toHaveLength(5);
    for (const refused of results.filter((result) => !result.ok)) expect(refused).toEqual({ ok: false, code: 'insufficient_credits' });
    expect(await balances(account.accountId)).toEqual({ trial: 0 });
    expect(await ctx.db.creditReservation.count({ where: { accountId: account.accountId, state: 'reserved' } })).toBe(5);
  });

  it('spends free monthly, then subscription, then trial, then pack credits', async () => {
    const account = await accountWith(ctx, { plan: 'free' });
    await ctx.db.$transaction(async (tx) => {
      for (const bucket of ['pack', 'trial', 'subscription', 'free_monthly'] as const) {
        await grantCredits(tx, { accountId: account.accountId, bucket, amount: 1 });
      }
    });
    const sources = [];
    for (let index = 0; index < 5; index++) {
      const result = await reserve(account);
      sources.push(result.ok ? result.source : result.code);
    }
    expect(sources).toEqual(['free_monthly', 'subscription', 'trial', 'pack', 'insufficient_credits']);
  });

  it('lets paid plans use overage up to the key cap, counted per key and month, even under concurrency', async () => {
    const account = await accountWith(ctx, { plan: 'growth', credits: 2, bucket: 'pack' });
    const results = await Promise.all(Array.from({ length: 12 }, () => reserve(account, 4)));
    const sources = results.map((result) => (result.ok ? result.source : result.code));
    expect(sources.filter((source) => source === 'pack')).toHaveLength(2);
    expect(sources.filter((source) => source === 'overage')).toHaveLength(4);
    expect(sources.filter((source) => source === 'insufficient_credits')).toHaveLength(6);
    const usage = await ctx.db.overageUsage.findMany({ where: { accountId: account.accountId } });
    expect(usage).toEqual([expect.objectContaining({ keyId: account.keyId, period: '2026-03', used: 4 })]);
    // a new month starts a new count
    setNow(new Date('2026-04-01T00:00:01Z'));
    try {
      expect((await reserve(account, 4)).ok).toBe(true);
    } finally {
      setNow(new Date('2026-03-15T12:00:00Z'));
    }
    // no cap on the key: overage is unbounded by it
    expect((await reserve(account, null)).ok).toBe(true);
  });

  it('never uses overage on free and pack plans', async () => {
    for (const plan of ['free', 'pack'] as const) {
      const account = await accountWith(ctx, { plan });
      expect(await reserve(account, null)).toEqual({ ok: false, code: 'insufficient_credits' });
    }
  });

  it('settles or releases each reservation exactly once, whatever races call it', async () => {
    const account = await accountWith(ctx, { plan: 'free', credits: 3, bucket: 'trial' });
    const settled = await reserve(account);
    const released = await reserve(account);
    if (!settled.ok || !released.ok) throw new Error('reservation failed');

    const settleRace = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        ctx.db.$transaction((tx) => (index % 2 ? releaseCredit(tx, { jobId: settled.jobId, now: ctx.clock(), metrics: ctx.metrics }) : settleCredit(tx, { jobId: settled.jobId, now: ctx.clock(), metrics: ctx.metrics }))),
      ),
    );
    expect(settleRace.filter(Boolean)).toHaveLength(1);

    const releaseRace = await Promise.all(
      Array.from({ length: 8 }, () => ctx.db.$transaction((tx) => releaseCredit(tx, { jobId: released.jobId, now: ctx.clock(), metrics: ctx.metrics }))),
    );
    expect(releaseRace.filter(Boolean)).toHaveLength(1);

    const ledger = await ctx.db.creditLedgerEntry.groupBy({ by: ['jobId', 'kind'], where: { accountId: account.accountId, jobId: { not: null } }, _count: true });
    for (const entry of ledger) expect(entry._count).toBe(1);
    // the mixed race may be won by a settle or a release; exactly that one outcome must stand
    const raced = await ctx.db.creditReservation.findUniqueOrThrow({ where: { jobId: settled.jobId } });
    const other = await ctx.db.creditReservation.findUniqueOrThrow({ where: { jobId: released.jobId } });
    expect(other.state).toBe('released');
    const racedKinds = ledger.filter((entry) => entry.jobId === settled.jobId).map((entry) => entry.kind).sort();
    expect(racedKinds).toEqual(['reserve', raced.state === 'settled' ? 'settle' : 'release'].sort());
    expect(['settled', 'released']).toContain(raced.state);
    // 3 credits, each released one comes back, a settled one is spent
    expect(await balances(account.accountId)).toEqual({ trial: raced.state === 'settled' ? 2 : 3 });
  });

  it('returns a released overage credit to the key count of its month', async () => {
    const account = await accountWith(ctx, { plan: 'starter' });
    const held = await reserve(account, 1);
    expect(held).toMatchObject({ ok: true, source: 'overage' });
    expect(await reserve(account, 1)).toEqual({ ok: false, code: 'insufficient_credits' });
    if (held.ok) await ctx.db.$transaction((tx) => releaseCredit(tx, { jobId: held.jobId, now: ctx.clock(), metrics: ctx.metrics }));
    expect(await reserve(account, 1)).toMatchObject({ ok: true, source: 'overage' });
  });

  it('keeps balances non-negative at the database level too', async () => {
    const account = await accountWith(ctx, { plan: 'free', credits: 1 });
    await expect(
      ctx.db.creditBalance.update({ where: { accountId_bucket: { accountId: account.accountId, bucket: 'trial' } }, data: { balance: { decrement: 2 } } }),
    ).rejects.toThrow();
  });
});

describe('monthly reset', () => {
  it('refills monthly buckets once per calendar month and leaves trial and pack credits alone', async () => {
    const account = await accountWith(ctx, { plan: 'starter', credits: 7, bucket: 'trial' });
    await ctx.db.account.update({ where: { id: account.accountId }, data: { monthlyFreeCredits: 50 } });
    await ctx.db.$transaction((tx) => grantCredits(tx, { accountId: account.accountId, bucket: 'pack', amount: 3 }));
    await reserve(account); // trial pays before pack

    // the month the account was opened in counts as already reset
    await resetMonthlyCredits(ctx, { at: new Date('2026-03-20T00:00:00Z') });
    expect(await balances(account.accountId)).toMatchObject({ trial: 6, pack: 3 });
    expect((await balances(account.accountId)).subscription ?? 0).toBe(0);

    await resetMonthlyCredits(ctx, { at: new Date('2026-04-01T00:00:00Z') });
    const april = await balances(account.accountId);
    expect(april).toEqual({ free_monthly: 50, subscription: 1000, trial: 6, pack: 3 });

    // spend some, then a repeated or backfilled run for April changes nothing
    await reserve(account);
    await resetMonthlyCredits(ctx, { at: new Date('2026-04-02T00:00:00Z') });
    expect(await balances(account.accountId)).toEqual({ free_monthly: 49, subscription: 1000, trial: 6, pack: 3 });

    // May: unused monthly credits do not carry over
    await resetMonthlyCredits(ctx, { at: new Date('2026-05-01T00:00:00Z') });
    expect(await balances(account.accountId)).toEqual({ free_monthly: 50, subscription: 1000, trial: 6, pack: 3 });
  });
});
