// The HTTPS POST of one webhook delivery attempt, under the egress policy (egressRequest): the
// receiver's status is the answer, redirects are never followed, and at most 16 KiB of the
// answer is read.
import { type EgressFailure, egressRequest } from '../egress/egress-request.ts';
import { type EgressPolicy, type EgressRefusal, webhookEgressRules } from '../egress/outgoing-url-policy.ts';

export const webhookTimeoutMs = 10_000;
/** The whole response, status line and headers included, is read up to this many bytes. */
export const maxWebhookResponseBytes = 16 * 1024;

export interface SendWebhookRequestOptions {
  headers: Record<string, string>;
  body: string;
  policy: EgressPolicy;
  timeoutMs?: number;
}

export interface WebhookRequestResult {
  /** The HTTP status received, or null when none was. */
  statusCode: number | null;
  /** Null when the receiver answered 2xx in time; else why the attempt failed. */
  failure: EgressRefusal | EgressFailure | null;
}

export async function sendWebhookRequest(url: string, options: SendWebhookRequestOptions): Promise<WebhookRequestResult> {
  const result = await egressRequest(url, {
    policy: options.policy,
    rules: webhookEgressRules,
    method: 'POST',
    headers: options.headers,
    body: options.body,
    timeoutMs: options.timeoutMs ?? webhookTimeoutMs,
    maxBytes: maxWebhookResponseBytes,
    answer: { read: 'status' },
  });
  if (result.ok) return { statusCode: result.status, failure: null };
  if ('refusal' in result) return { statusCode: null, failure: result.refusal };
  return { statusCode: result.status ?? null, failure: result.failure };
}
