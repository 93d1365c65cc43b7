import { createHmac, hkdfSync } from 'node:crypto';
import type { ServiceContext } from '../shared/context.ts';
import { secretsKeys } from '../settings/sealed-secrets.ts';
import type { RenderSpec } from './render-spec.ts';

/**
 * The fingerprint an idempotency record keeps. A request with a PDF open password keeps an
 * HMAC of its fingerprint under a key derived from the secrets key: a plain hash of a request
 * whose other fields are known would let anyone who reads the row test guessed passwords
 * offline. The same request with the same password still matches (a replay) and another
 * password still differs (idempotency_conflict); after a key rotation an earlier record no
 * longer matches, which answers idempotency_conflict rather than a wrong replay.
 */
export function requestFingerprint(ctx: ServiceContext, spec: Pick<RenderSpec, 'fingerprint' | 'options'>): string {
  if (spec.options.kind !== 'pdf' || spec.options.pdf.password === undefined) return spec.fingerprint;
  const key = Buffer.from(hkdfSync('sha256', secretsKeys(ctx.config.secrets).current, Buffer.alloc(0), 'svc idempotency fingerprint', 32));
  return `hmac:${createHmac('sha256', key).update(spec.fingerprint).digest('hex')}`;
}
