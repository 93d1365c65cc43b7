// Verification of webhook deliveries (the contract's events). The service signs each delivery with
//   svc-signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]
// where each v1 is the lowercase hex HMAC-SHA256, keyed by one signing secret, of the timestamp
// text, a dot and the raw body. During a rotation overlap two v1 values are sent (current secret
// first); a delivery is genuine when any of them matches.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { JobStatus, WebhookEventType } from './types.ts';

export const webhookSignatureHeader = 'svc-signature';

/** The body of a delivery. Events can repeat or arrive out of order: deduplicate by id. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: {
    job: {
      id: string;
      state: JobStatus;
      output: 'pdf' | 'image';
      /** The job's status route; read the job with your client rather than sending your key to this URL. */
      url: string;
    };
  };
}

export interface VerifyWebhookOptions {
  /** The raw request body exactly as received, before any JSON parsing. */
  payload: string | Uint8Array;
  /** The svc-signature header value. */
  signature: string | null | undefined;
  /** The destination's signing secret (svc_whsec_...), or several to accept any of them. */
  secret: string | readonly string[];
  /** Largest accepted distance between the signature timestamp and now. Default 300 s. */
  toleranceSeconds?: number;
  /** The receiver's clock. Default the current time. */
  now?: Date;
}

export type WebhookVerificationFailure = 'missing_signature' | 'malformed_signature' | 'timestamp_out_of_tolerance' | 'signature_mismatch';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(readonly reason: WebhookVerificationFailure) {
    super(`Webhook delivery refused: ${reason.replaceAll('_', ' ')}`);
  }
}

interface ParsedSignature {
  timestamp: string;
  signatures: Buffer[];
}

function parseSignature(header: string): ParsedSignature | null {
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2) as [string, string?];
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = value;
    if (name === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  return timestamp && signatures.length ? { timestamp, signatures } : null;
}

function expectedSignature(secret: string, timestamp: string, payload: string | Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest();
}

/**
 * Checks a delivery's signature and timestamp, then returns its parsed body.
 * Throws WebhookVerificationError (answer the delivery with a 4xx) when either does not hold.
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  if (!options.signature) throw new WebhookVerificationError('missing_signature');
  const parsed = parseSignature(options.signature);
  if (!parsed) throw new WebhookVerificationError('malformed_signature');
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(parsed.timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance');
  }
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  const expected = secrets.map((secret) => expectedSignature(secret, parsed.timestamp, options.payload));
  // every pair is compared, so the time taken does not tell which one matched
  const matches = expected.flatMap((mine) => parsed.signatures.map((theirs) => timingSafeEqual(mine, theirs)));
  if (!matches.includes(true)) throw new WebhookVerificationError('signature_mismatch');
  const text = typeof options.payload === 'string' ? options.payload : new TextDecoder().decode(options.payload);
  return JSON.parse(text) as WebhookEvent;
}
