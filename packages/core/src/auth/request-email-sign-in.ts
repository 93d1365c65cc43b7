import { clientSubject } from '../limits/client-subject.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import { verifierOf } from './secret.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { createSignInLink } from './create-sign-in-link.ts';
import { normalizeEmail } from './email-address.ts';
import { mailboxOf } from './email-mailbox.ts';

export interface RequestEmailSignInOptions {
  email: string;
  /** The caller's network address, for the per-client limit. */
  clientAddress: string;
}

/**
 * Mails a one-use sign-in link. The caller learns nothing about the address: an account's
 * address gets a link into it, any other address a link that opens a free account on first
 * use, and a suspended account's address gets nothing; the answer is the same every time.
 */
export async function requestEmailSignIn(ctx: ServiceContext, options: RequestEmailSignInOptions): Promise<void> {
  const email = normalizeEmail(options.email);
  const mailer = ctx.mailer;
  if (!mailer) throw new DomainError('auth_unavailable');
  const now = ctx.clock();
  await takeRateToken(ctx.db, 'email_sign_in_client', clientSubject(options.clientAddress), now);
  // counted per mailbox, so plus-addressed spellings of one address share its limits; a
  // refusal of the daily cap gives the minute's token back
  const mailbox = verifierOf(mailboxOf(email));
  await ctx.db.$transaction(async (tx) => {
    await takeRateToken(tx, 'email_sign_in_address', mailbox, now);
    await takeRateToken(tx, 'email_sign_in_mailbox_daily', mailbox, now);
  });
  const account = await ctx.db.account.findUnique({ where: { email }, select: { id: true, status: true } });
  if (account && account.status !== 'active') return;
  // another spelling of a mailbox that has an account opens no second one
  if (!account && (await ctx.db.account.findUnique({ where: { emailMailbox: mailboxOf(email) }, select: { id: true } }))) {
    const text = 'Someone asked for a Rendering Service sign-in link for this address. This mailbox already has an account under ' +
      'another spelling of its address, so no new account can be opened with it: ask for a link with the address you signed up with.';
    return deliver(ctx, { to: email, subject: 'Your sign-in link', text });
  }
  const link = await createSignInLink(ctx, account ? { accountId: account.id } : { email });
  const text = account
    ? `Open this link to sign in to the Rendering Service:\n\n${link.url}\n\nIt works once, for 15 minutes. If you did not ask for it, ignore this message.`
    : `Open this link to create your free Rendering Service account and sign in:\n\n${link.url}\n\n` +
      'It works once, for 15 minutes. If you did not ask for it, ignore this message and no account is created.';
  await deliver(ctx, { to: email, subject: 'Your sign-in link', text });
}

/**
 * Sends one message; a delivery failure is logged, never answered (the answer may not tell
 * one address from another, and says nothing about delivery).
 */
export async function deliver(ctx: ServiceContext, message: { to: string; subject: string; text: string }): Promise<void> {
  try {
    await ctx.mailer?.send(message);
  } catch (error) {
    ctx.logger.warn('email delivery failed', { error: error instanceof Error ? error.message : String(error) });
  }
}
