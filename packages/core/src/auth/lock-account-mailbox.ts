import type { Tx } from '@svc/db';
import { mailboxOf } from './email-mailbox.ts';

/**
 * Takes the transaction's lock on the mailbox `email` delivers to, and returns the account
 * holding that mailbox (under this or another spelling of the address), if any. Two first
 * uses of links for spellings of one new mailbox then open one account, not two.
 */
export async function lockAccountMailbox(tx: Tx, email: string): Promise<{ id: string; email: string | null } | null> {
  const mailbox = mailboxOf(email);
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`account-email:${mailbox}`}))`;
  return tx.account.findFirst({ where: { OR: [{ email }, { emailMailbox: mailbox }] }, select: { id: true, email: true } });
}
