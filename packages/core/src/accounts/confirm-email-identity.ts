import { verifierOf } from '../auth/secret.ts';
import type { SessionPrincipal } from '../auth/principal.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { lockAccountMailbox } from '../auth/lock-account-mailbox.ts';
import { proveAccountEmail } from '../auth/prove-account-email.ts';

export interface ConfirmEmailIdentityOptions {
  principal: SessionPrincipal;
  token: string;
}

export interface ConfirmedEmail {
  email: string;
  confirmedAt: Date;
  creditsGranted: number;
  next: string;
}

/**
 * Uses an emailed verification link once, from the session that asked for it: the address
 * becomes the account's and the plan's free monthly credits are granted (once; an account's
 * address is never replaced). A link that is used, expired, unknown or another session's
 * answers 400 invalid_link and stays as it was.
 */
export async function confirmEmailIdentity(ctx: ServiceContext, { principal, token }: ConfirmEmailIdentityOptions): Promise<ConfirmedEmail> {
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const [link] = await tx.$queryRaw<{ email: string; next: string }[]>`
      UPDATE auth_links SET used_at = ${now}
       WHERE verifier = ${verifierOf(token)} AND purpose = 'verify_email' AND used_at IS NULL AND expires_at > ${now}
         AND account_id = ${principal.accountId} AND session_id = ${principal.sessionId}
      RETURNING email, next`;
    if (!link) throw new DomainError('invalid_link');
    const holder = await lockAccountMailbox(tx, link.email);
    if (holder && holder.id !== principal.accountId) throw new DomainError('operation_conflict');
    const account = await tx.account.findUniqueOrThrow({ where: { id: principal.accountId }, select: { plan: true } });
    const granted = await proveAccountEmail(tx, principal.accountId, account.plan, link.email, now);
    if (granted === null) throw new DomainError('email_already_set');
    return { email: link.email, confirmedAt: now, creditsGranted: granted, next: link.next };
  });
}
