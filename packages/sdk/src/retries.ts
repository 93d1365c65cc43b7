// Bounded retries of one HTTP call. Only calls that cannot do anything twice are retried: reads,
// and create calls that carry an Idempotency-Key (the service replays the first answer for it).
import { setTimeout as sleep } from 'node:timers/promises';
import { idempotencyKeyHeader } from './idempotency.ts';

export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retries off. Default 3. */
  maxRetries?: number;
  /** First backoff delay for a network error or a 503 without Retry-After, doubled per retry. Default 500 ms. */
  initialDelayMs?: number;
  /** Cap of that backoff delay. Default 8 s. A Retry-After header is followed as given. */
  maxDelayMs?: number;
}

const defaults: Required<RetryOptions> = { maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8_000 };

/** Wraps `fetchOnce` so retryable calls survive network errors, 429 with Retry-After and 503. */
export function withRetries(fetchOnce: FetchLike, options: RetryOptions = {}): FetchLike {
  const policy = { ...defaults, ...options };
  return async (request) => {
    const attempts = isRepeatable(request) ? policy.maxRetries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      const last = attempt === attempts;
      // each attempt sends a copy, so the body is still there for the next one
      const sent = last ? request : request.clone();
      let response: Response;
      try {
        response = await fetchOnce(sent);
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        await sleep(backoffMs(attempt, policy), undefined, { signal: request.signal });
        continue;
      }
      const delay = retryDelayMs(response, attempt, policy);
      if (last || delay === null) return response;
      await response.body?.cancel();
      await sleep(delay, undefined, { signal: request.signal });
    }
  };
}

function isRepeatable(request: Request): boolean {
  return request.method === 'GET' || request.method === 'HEAD' || request.headers.has(idempotencyKeyHeader);
}

/** How long to wait before retrying this answer, or null when it is final. */
function retryDelayMs(response: Response, attempt: number, policy: Required<RetryOptions>): number | null {
  const retryAfter = retryAfterMs(response);
  if (response.status === 429) return retryAfter;
  if (response.status === 503) return retryAfter ?? backoffMs(attempt, policy);
  return null;
}

function retryAfterMs(response: Response): number | null {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
}

/** Exponential backoff with full jitter, so many clients refused together do not return together. */
function backoffMs(attempt: number, policy: Required<RetryOptions>): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
