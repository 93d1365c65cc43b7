// What a principal means for limits and billing: an API key and a browser session of the same
// account share the account's limits; a session's "per-key" rules are its own (docs/decisions/accounts.md, Principals).
import { authenticateApiKey, checkRateToken, createAccount, createRender, DomainError, type SessionPrincipal, spendRateToken, takeRateToken } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;

function sessionOf(account: { accountId: string; plan: SessionPrincipal['plan'] }, sessionId: string): SessionPrincipal {
  return { kind: 'session', accountId: account.accountId, plan: account.plan, sessionId, csrfToken: 'unused' };
}

const render = (principal: Parameters<typeof createRender>[1]['principal']) =>
  createRender(ctx, { principal, kind: 'pdf', request: { html: '<p>x</p>', wait: false }, idempotencyKey: null });

describe('a session principal', () => {
  it('creates jobs without a key, billed to the account with no key cap on overage', async () => {
    const account = await accountWith(ctx, { plan: 'scale' });
    const { job } = await render(sessionOf(account, 'sess_a'));
    expect(job).toMatchObject({ accountId: account.accountId, keyId: null, status: 'queued', credit: 'reserved' });
    const reservation = await ctx.db.creditReservation.findUniqueOrThrow({ where: { jobId: job.id } });
    expect(reservation).toMatchObject({ accountId: account.accountId, keyId: null, source: 'overage' });
  });

  it('counts the account jobs made without a key against the per-key limit of 8, and all jobs against the account limit of 16', async () => {
    const account = await accountWith(ctx, { plan: 'scale' });
    for (let index = 0; index < 8; index++) await render(sessionOf(account, `sess_${index % 2}`));
    // a second session of the same account shares the keyless count
    await expect(render(sessionOf(account, 'sess_other'))).rejects.toMatchObject({ code: 'key_concurrency_limited', retryAfterSeconds: 1 });
    // the API key has its own eight
    for (let index = 0; index < 8; index++) await render(account);
    await expect(render(account)).rejects.toMatchObject({ code: 'account_concurrency_limited' });
  });

  it('has a render rate bucket of its own, apart from the keys of its account', async () => {
    const account = await accountWith(ctx, { plan: 'scale' });
    const now = ctx.clock();
    for (let index = 0; index < 21; index++) await takeRateToken(ctx.db, 'render_creation', 'session:sess_rate', now);
    await expect(takeRateToken(ctx.db, 'render_creation', 'session:sess_rate', now)).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(render(sessionOf(account, 'sess_rate'))).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 1 });
    // the account's key is not limited by the session's bucket
    const { job } = await render(account);
    expect(job.keyId).toBe(account.keyId);
  });
});

describe('the rate-limit mechanism', () => {
  it('refills by elapsed time; a refused request gives its token back', async () => {
    const start = new Date('2026-05-01T00:00:00Z');
    for (let index = 0; index < 20; index++) await takeRateToken(ctx.db, 'template_preview', 'key:refill', start);
    const refused = await takeRateToken(ctx.db, 'template_preview', 'key:refill', start).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 1 });
    // refusals did not dig a hole: a quarter second later (4 per second) one token is back
    await takeRateToken(ctx.db, 'template_preview', 'key:refill', new Date(start.getTime() + 250));
    await expect(takeRateToken(ctx.db, 'template_preview', 'key:refill', new Date(start.getTime() + 250))).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('checks without taking, and spends for work that already happened', async () => {
    const start = new Date('2026-05-01T00:00:00Z');
    await checkRateToken(ctx.db, 'webhook_test', 'wh_check', start);
    await checkRateToken(ctx.db, 'webhook_test', 'wh_check', start);
    await spendRateToken(ctx.db, 'webhook_test', 'wh_check', start);
    await expect(checkRateToken(ctx.db, 'webhook_test', 'wh_check', start)).rejects.toMatchObject({ retryAfterSeconds: 60 });
    await expect(checkRateToken(ctx.db, 'webhook_test', 'wh_check', new Date(start.getTime() + 45_000))).rejects.toMatchObject({ retryAfterSeconds: 15 });
    await checkRateToken(ctx.db, 'webhook_test', 'wh_check', new Date(start.getTime() + 60_000));
  });
});

describe('an API key principal', () => {
  it('records when the key was last used, to the minute, without a write on every request', async () => {
    const start = new Date('2026-03-15T12:00:00Z');
    test.setNow(start);
    const { accountId, apiKey } = await createAccount(ctx, { plan: 'scale' });
    const lastUsed = async () => (await ctx.db.apiKey.findFirstOrThrow({ where: { accountId } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();

    const principal = await authenticateApiKey(ctx, `Bearer ${apiKey}`);
    expect(principal).toMatchObject({ kind: 'api_key', accountId });
    expect(await lastUsed()).toEqual(start);

    // within the minute the stored time stays
    test.setNow(new Date(start.getTime() + 59_000));
    await authenticateApiKey(ctx, `Bearer ${apiKey}`);
    expect(await lastUsed()).toEqual(start);

    // past it, the next request moves it
    const later = new Date(start.getTime() + 61_000);
    test.setNow(later);
    await authenticateApiKey(ctx, `Bearer ${apiKey}`);
    expect(await lastUsed()).toEqual(later);
    test.setNow(start);
  });

  it('refuses the key of a suspended account with account_suspended, and a revoked key with unauthorized', async () => {
    const { accountId, apiKey } = await createAccount(ctx, { plan: 'scale' });
    await ctx.db.account.update({ where: { id: accountId }, data: { status: 'suspended' } });
    await expect(authenticateApiKey(ctx, `Bearer ${apiKey}`)).rejects.toMatchObject({ code: 'account_suspended' });
    await ctx.db.apiKey.updateMany({ where: { accountId }, data: { status: 'revoked' } });
    await expect(authenticateApiKey(ctx, `Bearer ${apiKey}`)).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
