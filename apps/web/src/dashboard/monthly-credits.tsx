// The plan's monthly credits, told the same way on the Overview and the Account page.
import { type AccountSummary, freeMonthlyCredits, planTerms } from '@svc/core';
import { LocalNumber } from './ui/local-format.tsx';

export interface MonthlyAllowance {
  /** The bucket the monthly refill goes into. */
  bucket: 'subscription' | 'free_monthly';
  credits: number;
  /** Free monthly credits come only once the account's email address is confirmed. */
  awaitsEmail: boolean;
}

/** What the account's plan refills each month, or null when it refills nothing. */
export function monthlyAllowance(account: Pick<AccountSummary, 'plan' | 'email'>): MonthlyAllowance | null {
  const subscription = planTerms[account.plan].subscriptionCredits;
  if (subscription > 0) return { bucket: 'subscription', credits: subscription, awaitsEmail: false };
  const free = freeMonthlyCredits[account.plan];
  if (free > 0) return { bucket: 'free_monthly', credits: free, awaitsEmail: account.email === null };
  return null;
}

/** "25,000", "50 free, once your email address is confirmed", or "None". */
export function MonthlyCredits({ allowance }: { allowance: MonthlyAllowance | null }) {
  if (!allowance) return <>None</>;
  if (allowance.bucket === 'subscription') return <LocalNumber value={allowance.credits} />;
  return (
    <>
      <LocalNumber value={allowance.credits} /> free{allowance.awaitsEmail ? ', once your email address is confirmed' : ''}
    </>
  );
}
