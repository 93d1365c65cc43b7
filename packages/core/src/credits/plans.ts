import type { CreditBucket, Plan } from '@svc/db';

export interface PlanTerms {
  /** Subscription credits refilled at the start of every calendar month (UTC). */
  subscriptionCredits: number;
  /** Whether work beyond the prepaid balance is allowed and billed as overage. */
  overage: boolean;
}

/** Paid subscription plans (scale, growth, starter) carry monthly credits and may use overage. */
export const planTerms: Record<Plan, PlanTerms> = {
  scale: { subscriptionCredits: 25_000, overage: true },
  growth: { subscriptionCredits: 5_000, overage: true },
  starter: { subscriptionCredits: 1_000, overage: true },
  pack: { subscriptionCredits: 0, overage: false },
  free: { subscriptionCredits: 0, overage: false },
};

/**
 * Free monthly credits an account receives once its email address is proven: granted for the
 * current month at confirmation, then at every monthly reset. Paid subscription plans carry
 * their own monthly allowance instead.
 */
export const freeMonthlyCredits: Record<Plan, number> = { free: 50, pack: 50, starter: 0, growth: 0, scale: 0 };

/**
 * The order in which buckets pay for work: credits that lapse soonest go first
 * (free monthly and subscription credits are refilled, not carried over), then
 * trial credits, then purchased packs, which never lapse.
 */
export const spendingOrder: readonly CreditBucket[] = ['free_monthly', 'subscription', 'trial', 'pack'];

export const creditBuckets: readonly CreditBucket[] = ['free_monthly', 'trial', 'pack', 'subscription'];
