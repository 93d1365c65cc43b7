import { newAuthSecret } from '../auth/auth-secrets.ts';
import { normalizeEmail, safeNextPath } from '../auth/email-address.ts';
import type { SessionPrincipal } from '../auth/principal.ts';
import { deliver } from '../auth/request-email-sign-in.ts';
import { authLinkLifetimeMs, authLinkSecretPrefix } from '../auth/session-rules.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';

export interface RequestEmailIdentityOptions {
  principal: SessionPrincipal;
  email: string;
  next?: string;
}

/** Browser page that confirms an emailed token (the token travels in the fragment, never to a server log). */
export const confirmEmailPath = '/auth/confirm-email';

/**
 * Mails a one-use link that proves `email` for the calling account, bound to the exact
 * session that asked (the contract's account routes). An account that has an address cannot change it (409).
 * An address that another account holds gets a notice instead of a link; the caller's answer
 * is the same either way.
 */
export async function requestEmailIdentity(ctx: ServiceContext, { principal, email: given, next }: RequestEmailIdentityOptions): Promise<void> {
  const email = normalizeEmail(given);
  const nextPath = safeNextPath(next);
  if (!ctx.mailer) throw new DomainError('auth_unavailable');
  const account = await ctx.db.account.findUniqueOrThrow({ where: { id: principal.accountId }, select: { email: true } });
  if (account.email !== null) throw new DomainError('email_already_set');
  const now = ctx.clock();
  await takeRateToken(ctx.db, 'email_identity', principal.accountId, now);
  const holder = await ctx.db.account.findUnique({ where: { email }, select: { id: true } });
  if (holder) {
    const text = 'Someone asked to add this address to a Rendering Service account, but it already belongs to one. ' +
      'To use that account, sign in with this address. If it was not you, ignore this message.';
    return deliver(ctx, { to: email, subject: 'This address already has an account', text });
  }
  const { secret, verifier } = newAuthSecret(authLinkSecretPrefix);
  await ctx.db.authLink.create({
    data: {
      verifier,
      purpose: 'verify_email',
      accountId: principal.accountId,
      sessionId: principal.sessionId,
      email,
      next: nextPath,
      createdAt: now,
      expiresAt: new Date(now.getTime() + authLinkLifetimeMs),
    },
  });
  const url = `${ctx.config.publicUrl}${confirmEmailPath}#token=${secret}`;
  const text = `Open this link in the same browser to confirm your email address for the Rendering Service:\n\n${url}\n\n` +
    'It works once, for 15 minutes. If you did not ask for it, ignore this message.';
  await deliver(ctx, { to: email, subject: 'Confirm your email address', text });
}
