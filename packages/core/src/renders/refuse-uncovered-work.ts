// Some work is done for an account before any credit is reserved for it: an image pack's
// layouts come before its members are admitted, a version comparison's renders are never
// billed. Such work starts only while the account could pay for what it stands for, so an
// account without credits gets none of it done.
import type { DbOrTx } from '@svc/db';
import { keyIdOf, overageCapOf, type Principal } from '../auth/principal.ts';
import { DomainError } from '../shared/errors.ts';
import { periodOf } from '../shared/period.ts';
import { planTerms } from '../credits/plans.ts';
import { overageKey } from '../credits/reserve-credits.ts';

export interface CreditCoverOptions {
  principal: Principal;
  /** credits the work stands for */
  credits: number;
  now: Date;
}

/**
 * 402 insufficient_credits unless the account's buckets, then (on plans with overage) the
 * key's overage room within its monthly cap, could pay `credits` now, as reserveCredits would
 * take them. Nothing is held: concurrent requests may each pass, and what they then admit is
 * reserved, or refused, by the admission itself.
 */
export async function refuseUnlessCreditsCover(db: DbOrTx, { principal, credits, now }: CreditCoverOptions): Promise<void> {
  const keyId = overageKey({ accountId: principal.accountId, keyId: keyIdOf(principal) });
  const [row] = await db.$queryRaw<{ balance: number; overage: number }[]>`
    SELECT COALESCE((SELECT sum(balance) FROM credit_balances WHERE account_id = ${principal.accountId}), 0)::int AS balance,
           COALESCE((SELECT used FROM overage_usage WHERE key_id = ${keyId} AND period = ${periodOf(now)}), 0)::int AS overage`;
  const short = credits - (row?.balance ?? 0);
  if (short <= 0) return;
  const cap = overageCapOf(principal);
  if (planTerms[principal.plan].overage && (cap === null || (row?.overage ?? 0) + short <= cap)) return;
  throw new DomainError('insufficient_credits');
}
