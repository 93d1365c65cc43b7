import type { DbOrTx } from '@svc/db';
import { DomainError } from '../shared/errors.ts';

export interface TokenBucket {
  /** Tokens added per second. */
  rate: number;
  /** Largest number of tokens held (the idle burst). */
  burst: number;
}

/** Render creation: five requests per second per key, with an idle burst of twenty-one (spec part 8). */
export const renderCreationRate: TokenBucket = { rate: 5, burst: 21 };

/**
 * Takes one token from a bucket kept in Postgres, so the limit holds across web
 * instances. One statement refills by elapsed time, takes a token when one is there,
 * and reports how long until the next one otherwise; a refused request gives its token
 * back. Throws 429 rate_limited.
 */
export async function takeToken(db: DbOrTx, key: string, bucket: TokenBucket, now: Date): Promise<void> {
  const rows = await db.$queryRaw<{ allowed: boolean; tokens: number }[]>`
    INSERT INTO rate_limit_buckets AS b (key, tokens, updated_at)
    VALUES (${key}, ${bucket.burst - 1}, ${now})
    ON CONFLICT (key) DO UPDATE SET
      tokens = LEAST(${bucket.burst}::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (${now}::timestamptz - b.updated_at))) * ${bucket.rate}::float8) - 1,
      updated_at = GREATEST(b.updated_at, ${now}::timestamptz)
    RETURNING tokens >= 0 AS allowed, tokens`;
  const row = rows[0];
  if (!row || row.allowed) return;
  // put the token back: a refused request does not consume capacity
  await db.$executeRaw`UPDATE rate_limit_buckets SET tokens = tokens + 1 WHERE key = ${key}`;
  const wait = (0 - row.tokens) / bucket.rate;
  throw new DomainError('rate_limited', { retryAfterSeconds: Math.max(1, Math.ceil(wait)) });
}
