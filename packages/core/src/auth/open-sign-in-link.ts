import type { Tx } from '@svc/db';
import { lockAccountMailbox } from './lock-account-mailbox.ts';
import { proveAccountEmail } from './prove-account-email.ts';
import { clientSubject } from '../limits/client-subject.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import { DomainError } from '../shared/errors.ts';
import { verifierOf } from './secret.ts';
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
  /** The browser's network address: a client opens at most a few new accounts a day (none given: an operator's tool). */
  clientAddress?: string;
}

export type SignInOutcome = { signedIn: true; session: StartedSession } | { signedIn: false };

/**
 * Uses a sign-in link once: marks it used and starts a new session for its account. A link
 * mailed to an address without an account opens a free account with that (now proven)
 * address. Used, expired and unknown links, and links of suspended accounts, sign nobody in.
 */
export async function openSignInLink(ctx: ServiceContext, { secret, presentedSession, clientAddress }: OpenSignInLinkOptions): Promise<SignInOutcome> {
  if (!authLinkSecretPattern.test(secret)) return { signedIn: false };
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const [link] = await tx.$queryRaw<{ account_id: string | null; email: string | null }[]>`
      UPDATE auth_links SET used_at = ${now}
       WHERE verifier = ${verifierOf(secret)} AND purpose = 'sign_in' AND used_at IS NULL AND expires_at > ${now}
      RETURNING account_id, email`;
    if (!link) return { signedIn: false };
    const accountId = link.account_id ?? (await accountForAddress(tx, link.email as string, now, clientAddress));
    if (accountId === null) return { signedIn: false };
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

/**
 * The account holding `email`, or a new free account with it, proven by this very link; null
 * when another spelling of the address already holds its mailbox (one free account per
 * mailbox). A new account counts against its client's daily allowance: past it, 403
 * abuse_limited, and the link stays unused.
 */
async function accountForAddress(tx: Tx, email: string, now: Date, clientAddress: string | undefined): Promise<string | null> {
  const holder = await lockAccountMailbox(tx, email);
  if (holder) return holder.email === email ? holder.id : null;
  if (clientAddress !== undefined) {
    await takeRateToken(tx, 'account_creation_client', clientSubject(clientAddress), now).catch((error: unknown) => {
      throw error instanceof DomainError && error.code === 'rate_limited' ? new DomainError('abuse_limited') : error;
    });
  }
  const account = await tx.account.create({ data: { id: newId(accountIdPrefix), plan: 'free', createdAt: now } });
  await tx.creditPeriodReset.create({ data: { accountId: account.id, period: periodOf(now) } });
  await proveAccountEmail(tx, account.id, 'free', email, now);
  return account.id;
}
