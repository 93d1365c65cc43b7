// The numbers of the delivery contract (the contract's events) and its limits, in one place.

/** Attempts per event and per replay. */
export const attemptsPerRound = 8;

/**
 * Wait after each failed attempt before the next one: 1 min, 5 min, 30 min, 2 h, 5 h, 8 h,
 * 8 h. The eighth attempt comes 23 h 36 min after the first.
 */
export const retryDelaysMs = [60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000] as const;

/** Consecutive failed attempts of normal deliveries that disable a destination. */
export const failuresToDisable = 50;

/**
 * How long a claimed attempt may stay in flight (the 10 s receiver limit plus room) before
 * recovery sends it again under the same attempt record.
 */
export const attemptLeaseMs = 60_000;

/** The delivery log keeps attempts (and finished deliveries) this long. */
export const deliveryLogRetentionMs = 30 * 24 * 3_600_000;

/** When attempt `finished` (1-based count of finished attempts) has failed, the next one is due at. */
export function nextAttemptAt(finished: number, now: Date): Date | null {
  if (finished >= attemptsPerRound) return null;
  const delay = retryDelaysMs[finished - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}

export const deliveryJobKey = (deliveryId: string) => `webhook-delivery:${deliveryId}`;

/** Statuses outside 200..599 are not HTTP answers the contract can show; they read as null. */
export function visibleStatus(statusCode: number | null): number | null {
  return statusCode !== null && statusCode >= 200 && statusCode <= 599 ? statusCode : null;
}
