import type { Plan, Tx } from '@svc/db';
import { grantCredits } from '../credits/grant-credits.ts';
import { freeMonthlyCredits } from '../credits/plans.ts';
import { mailboxOf } from './email-mailbox.ts';

/**
 * Records a proven address on an account that has none, and grants the plan's free monthly
 * credits for the current month, once: an account's address is set once and never changed,
 * so the grant cannot repeat. The caller holds the mailbox's lock and has checked that no
 * other account holds the mailbox (lockAccountMailbox). Returns the credits granted, or null when the account already
 * had an address.
 */
export async function proveAccountEmail(tx: Tx, accountId: string, plan: Plan, email: string, now: Date): Promise<number | null> {
  const amount = freeMonthlyCredits[plan];
  const updated = await tx.account.updateMany({
    where: { id: accountId, email: null },
    data: { email, emailMailbox: mailboxOf(email), emailVerifiedAt: now, monthlyFreeCredits: amount },
  });
  if (updated.count === 0) return null;
  if (amount > 0) await grantCredits(tx, { accountId, bucket: 'free_monthly', amount });
  return amount;
}
