import { type DbOrTx, Prisma, queryRows } from '@svc/db';
import { DomainError } from '../shared/errors.ts';

export interface TokenBucket {
  /** Tokens added per second. */
  rate: number;
  /** Largest number of tokens held (the idle burst). */
  burst: number;
}

/** Every request rate limit of the service: one mechanism, one table of buckets. */
export const rateLimits = {
  /** Render creation: five per second per principal, with an idle burst of twenty-one (the contract's limits). */
  render_creation: { rate: 5, burst: 21 },
  /** Template preview and adapt share one bucket per principal: four per second, idle burst of twenty. */
  template_preview: { rate: 4, burst: 20 },
  /** Unbilled renders per account (version comparisons, adapt layouts): eight at once, then one every two seconds. */
  unbilled_render: { rate: 1 / 2, burst: 8 },
  /** Unbilled renders per account per day, whatever the minute rate allows: two thousand (a thousand comparisons). */
  unbilled_render_daily: { rate: 2_000 / 86_400, burst: 2_000 },
  /** Seconds of sandbox work evaluating templates per account: five held, half a second back per second (evaluation-budget.ts). */
  template_evaluation: { rate: 1 / 2, burst: 5 },
  /** Image uploads per principal: five per second, idle burst of twenty-five (the spec names no figure). */
  image_asset_upload: { rate: 5, burst: 25 },
  /** Brand kit logo and font uploads and replacements per principal: as image uploads. */
  brand_asset_upload: { rate: 5, burst: 25 },
  /** Image URL previews per principal (each may fetch up to 10 MiB from elsewhere): two per second, idle burst of ten. */
  image_url_preview: { rate: 2, burst: 10 },
  /** Webhook tests: one completed test per destination per minute (the delivery contract's test rule). */
  webhook_test: { rate: 1 / 60, burst: 1 },
  /** Emailed sign-in links per address: three at once, then one a minute. */
  email_sign_in_address: { rate: 1 / 60, burst: 3 },
  /** Emailed sign-in links per client address: twenty at once, then one every six seconds. */
  email_sign_in_client: { rate: 1 / 6, burst: 20 },
  /** Email verification links per account: three at once, then one a minute. */
  email_identity: { rate: 1 / 60, burst: 3 },
  /** AI chat messages per principal (the contract's AI chat routes list 429): one per second, idle burst of ten. */
  ai_chat_message: { rate: 1, burst: 10 },
  /** Testimonials per client address: three at once, then one every ten minutes. */
  testimonial: { rate: 1 / 600, burst: 3 },
  /** Emailed sign-in links per mailbox per day (any spelling of it): ten, whatever the minute rate allows. */
  email_sign_in_mailbox_daily: { rate: 10 / 86_400, burst: 10 },
  /** New accounts opened from one client (an IPv4 address or an IPv6 /64) per day: three. */
  account_creation_client: { rate: 3 / 86_400, burst: 3 },
} as const satisfies Record<string, TokenBucket>;

export type RateLimitName = keyof typeof rateLimits;

/**
 * Takes one token from the named bucket of `subject` (a principal or a resource), or throws
 * 429 rate_limited with the time to the next token. Buckets live in Postgres, so a limit holds
 * across web instances; given a transaction, the token is taken only if it commits.
 */
export async function takeRateToken(
  db: DbOrTx,
  name: RateLimitName,
  subject: string,
  now: Date,
  code: RateLimitCode = 'rate_limited',
): Promise<void> {
  await takeRateAmount(db, name, subject, now, 1, code);
}

/** The 429 codes a bucket can answer with. */
export type RateLimitCode = 'rate_limited' | 'testimonial_rate_limited';

/** Throws 429 rate_limited when a token could not be taken now, and takes none: for work counted when it ends. */
export async function checkRateToken(db: DbOrTx, name: RateLimitName, subject: string, now: Date): Promise<void> {
  const bucket = rateLimits[name];
  const rows = await db.$queryRaw<{ tokens: number }[]>`
    SELECT LEAST(${bucket.burst}::float8, tokens + GREATEST(0, EXTRACT(EPOCH FROM (${now}::timestamptz - updated_at))) * ${bucket.rate}::float8) AS tokens
      FROM rate_limit_buckets WHERE key = ${bucketKey(name, subject)}`;
  const tokens = (rows[0]?.tokens ?? bucket.burst) - 1;
  if (tokens < 0) throw refusal(bucket, tokens);
}

/** Takes a token for work that already happened, whether or not one was there (the bucket may run into debt). */
export async function spendRateToken(db: DbOrTx, name: RateLimitName, subject: string, now: Date): Promise<void> {
  await spendRateAmount(db, name, subject, now, 1);
}

const bucketKey = (name: RateLimitName, subject: string) => `${name}:${subject}`;

/** One statement: refill by elapsed time, take `amount` (negative gives back, up to the burst), report what is left (negative: short). */
async function change(db: DbOrTx, name: RateLimitName, subject: string, now: Date, amount: number, floor: number): Promise<number> {
  // on the driver when the database client has one (queryRows): a template evaluation takes and
  // refunds its account's budget on every saved render, a path where Prisma's own cost showed
  const rows = await queryRows<{ tokens: number }>(db, rateAmountChange(name, subject, now, amount, floor));
  return rows[0]?.tokens ?? 0;
}

/**
 * The statement that refills the bucket by the time elapsed and takes `amount` from it (the
 * debt it may run into is at most `floor`), returning the `tokens` left (negative: short): for
 * a caller that asks something else in the same statement (a common table expression).
 */
export function rateAmountChange(name: RateLimitName, subject: string, now: Date, amount: number, floor: number = rateLimits[name].burst): Prisma.Sql {
  const bucket = rateLimits[name];
  return Prisma.sql`
    INSERT INTO rate_limit_buckets AS b (key, tokens, updated_at)
    VALUES (${bucketKey(name, subject)}, ${Math.min(bucket.burst, bucket.burst - amount)}, ${now})
    ON CONFLICT (key) DO UPDATE SET
      tokens = LEAST(${bucket.burst}::float8, GREATEST(-${floor}::float8,
        LEAST(${bucket.burst}::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (${now}::timestamptz - b.updated_at))) * ${bucket.rate}::float8) - ${amount})),
      updated_at = GREATEST(b.updated_at, ${now}::timestamptz)
    RETURNING tokens`;
}

function refusal(bucket: TokenBucket, tokens: number, code: RateLimitCode = 'rate_limited'): DomainError {
  // rounded to the microsecond first, so float noise in the refill does not add a second
  const wait = Math.round(((0 - tokens) / bucket.rate) * 1e6) / 1e6;
  return new DomainError(code, { retryAfterSeconds: Math.max(1, Math.ceil(wait)) });
}

/**
 * Takes `amount` from the named bucket of `subject` or throws 429 (rate_limited unless `code`
 * says otherwise) with the time until that much is back; a refusal takes nothing. takeRateToken
 * is this with one token; buckets counted in units of work take more.
 */
export async function takeRateAmount(
  db: DbOrTx,
  name: RateLimitName,
  subject: string,
  now: Date,
  amount: number,
  code: RateLimitCode = 'rate_limited',
): Promise<void> {
  const tokens = await change(db, name, subject, now, amount, rateLimits[name].burst);
  await refuseWhenShort(db, name, subject, amount, tokens, code);
}

/**
 * After `amount` was taken with rateAmountChange: when that left the bucket short, gives it
 * back (a refused request does not consume capacity) and throws 429 with the time until that
 * much is back.
 */
export async function refuseWhenShort(db: DbOrTx, name: RateLimitName, subject: string, amount: number, tokens: number, code: RateLimitCode = 'rate_limited'): Promise<void> {
  if (tokens >= 0) return;
  await db.$executeRaw`UPDATE rate_limit_buckets SET tokens = tokens + ${amount}::float8 WHERE key = ${bucketKey(name, subject)}`;
  throw refusal(rateLimits[name], tokens, code);
}

/** Takes `amount` for work already done (negative gives back); the bucket may run into a debt of at most its burst. */
export async function spendRateAmount(db: DbOrTx, name: RateLimitName, subject: string, now: Date, amount: number): Promise<void> {
  await change(db, name, subject, now, amount, rateLimits[name].burst);
}
