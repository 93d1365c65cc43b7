// Ended sessions and expired links are kept a month for support, then pruned; nothing usable goes.
import { createSignInLink, endSession, openSignInLink, pruneAuthRecords } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;
const day = 24 * 3_600_000;
const start = new Date('2026-03-01T12:00:00Z');
const after = (days: number) => new Date(start.getTime() + days * day);

/** Signs a browser in with a fresh link, as the link page does; answers the session id. */
async function signIn(accountId: string) {
  const { url } = await createSignInLink(ctx, { accountId });
  const outcome = await openSignInLink(ctx, { secret: url.split('/').pop()! });
  if (!outcome.signedIn) throw new Error('the link did not sign in');
  return outcome.session.sessionId;
}

describe('pruning sessions and sign-in links', () => {
  it('removes sessions and links that ended more than 30 days ago and keeps a session in use', async () => {
    test.setNow(start);
    const { accountId } = await accountWith(ctx, { plan: 'free' });
    const signedOut = await signIn(accountId);
    await endSession(ctx, { sessionId: signedOut });
    const idle = await signIn(accountId);

    test.setNow(after(32));
    const active = await signIn(accountId);
    expect(await pruneAuthRecords(ctx)).toEqual({ sessions: 2, links: 2 });

    const left = await ctx.db.session.findMany({ where: { accountId }, select: { id: true } });
    expect(left.map((session) => session.id)).toEqual([active]);
    expect(await ctx.db.authLink.count({ where: { accountId } })).toBe(1);
    expect(await ctx.db.session.count({ where: { id: { in: [signedOut, idle] } } })).toBe(0);
  });

  it('keeps an ended session and its link for 30 days', async () => {
    test.setNow(start);
    const { accountId } = await accountWith(ctx, { plan: 'free' });
    const session = await signIn(accountId);
    await endSession(ctx, { sessionId: session });
    test.setNow(after(29));
    expect(await pruneAuthRecords(ctx)).toEqual({ sessions: 0, links: 0 });
    expect(await ctx.db.session.count({ where: { id: session } })).toBe(1);
  });
});
