import { createHmac, randomBytes } from 'node:crypto';

export const webhookSecretPrefix = 'svc_whsec_';
/** display_prefix: the scheme and four hex characters, as for API keys. */
const displayPrefixLength = webhookSecretPrefix.length + 4;
/** How long the previous secret keeps signing after a rotation (the delivery contract's rotation rule). */
export const rotationOverlapMs = 24 * 3_600_000;

export function newWebhookSecret(): { secret: string; displayPrefix: string } {
  const secret = `${webhookSecretPrefix}${randomBytes(32).toString('hex')}`;
  return { secret, displayPrefix: secret.slice(0, displayPrefixLength) };
}

export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets that sign at `now`: the current one first, the previous one while its overlap lasts. */
export function activeSecrets(webhook: SigningSecrets, now: Date): string[] {
  const previous =
    webhook.previousSecret && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > now ? [webhook.previousSecret] : [];
  return [webhook.secret, ...previous];
}

/**
 * The svc-signature header (the delivery contract's signature rule): t=<unix seconds>, then one v1 per active secret,
 * each a lowercase hex HMAC-SHA256 over "<t>.<raw body>".
 */
export function signatureHeader(secrets: readonly string[], body: string, now: Date): string {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signatures = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  return [`t=${timestamp}`, ...signatures].join(',');
}
