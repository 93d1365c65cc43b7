import type { Tx } from '@svc/db';
import { proveAccountEmail } from '../accounts/prove-account-email.ts';
import { verifierOf } from '../keys/secret.ts';
import type { ServiceContext } from '../shared/context.ts';
import { accountIdPrefix, newId } from '../shared/ids.ts';
import { periodOf } from '../shared/period.ts';
import { authLinkSecretPattern, sessionSecretPattern } from './session-rules.ts';
import { type StartedSession, startSession } from './start-session.ts';

export interface OpenSignInLinkOptions {
  /** The secret from the link's path. */
  secret: string;
  /** A session cookie the browser already sent, if any: it is ended, never taken over. */
  presentedSession?: string | null;
}

export type SignInOutcome = { signedIn: true; session: StartedSession } | { signedIn: false };

/**
 * Uses a sign-in link once: marks it used and starts a new session for its account. A link
 * mailed to an address without an account opens a free account with that (now proven)
 * address. Used, expired and unknown links, and links of suspended accounts, sign nobody in.
 */
export async function openSignInLink(ctx: ServiceContext, { secret, presentedSession }: OpenSignInLinkOptions): Promise<SignInOutcome> {
  if (!authLinkSecretPattern.test(secret)) return { signedIn: false };
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const [link] = await tx.$queryRaw<{ account_id: string | null; email: string | null }[]>`
      UPDATE auth_links SET used_at = ${now}
       WHERE verifier = ${verifierOf(secret)} AND purpose = 'sign_in' AND used_at IS NULL AND expires_at > ${now}
      RETURNING account_id, email`;
    if (!link) return { signedIn: false };
    const accountId = link.account_id ?? (await accountForAddress(tx, link.email as string, now));
    const account = await tx.account.findUnique({ where: { id: accountId }, select: { status: true } });
    if (account?.status !== 'active') return { signedIn: false };
    if (presentedSession && sessionSecretPattern.test(presentedSession)) {
      await tx.session.updateMany({
        where: { verifier: verifierOf(presentedSession), endedAt: null },
        data: { endedAt: now, endReason: 'sign_out' },
      });
    }
    return { signedIn: true, session: await startSession(tx, accountId, now) };
  });
}

/** The account holding `email`, or a new free account with it, proven by this very link. */
async function accountForAddress(tx: Tx, email: string, now: Date): Promise<string> {
  // two first uses of links for one new address must open one account, not two
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`account-email:${email}`}))`;
  const existing = await tx.account.findUnique({ where: { email }, select: { id: true } });
  if (existing) return existing.id;
  const account = await tx.account.create({ data: { id: newId(accountIdPrefix), plan: 'free', createdAt: now } });
  await tx.creditPeriodReset.create({ data: { accountId: account.id, period: periodOf(now) } });
  await proveAccountEmail(tx, account.id, 'free', email, now);
  return account.id;
}
