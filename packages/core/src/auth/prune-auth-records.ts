import type { ServiceContext } from '../shared/context.ts';
import { sessionIdleTimeoutMs } from './session-rules.ts';

/** How long a session that has ended, or a link that has expired, stays on record (for support). */
export const authRecordRetentionMs = 30 * 24 * 3_600_000;

/**
 * Removes sessions that ended (signed out, suspended, idle past the timeout, or past their
 * absolute end) more than 30 days ago, with their links, and sign-in and email links that
 * expired more than 30 days ago, used or not. Nothing still usable is touched: a session's
 * idle end is counted from its last use.
 */
export async function pruneAuthRecords(ctx: ServiceContext): Promise<{ sessions: number; links: number }> {
  const cutoff = new Date(ctx.clock().getTime() - authRecordRetentionMs);
  const idleCutoff = new Date(cutoff.getTime() - sessionIdleTimeoutMs);
  const links = await ctx.db.authLink.deleteMany({ where: { expiresAt: { lt: cutoff } } });
  const sessions = await ctx.db.session.deleteMany({
    where: { OR: [{ endedAt: { lt: cutoff } }, { expiresAt: { lt: cutoff } }, { lastSeenAt: { lt: idleCutoff } }] },
  });
  return { sessions: sessions.count, links: links.count };
}
