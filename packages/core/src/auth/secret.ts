import { createHash, randomBytes } from 'node:crypto';

export const secretPrefix = 'svc_sk_v1_';
/** How much of the secret is shown back as display_prefix: the scheme and four hex characters. */
const displayPrefixLength = secretPrefix.length + 4;

export interface NewSecret {
  secret: string;
  verifier: string;
  displayPrefix: string;
}

export function newApiKeySecret(): NewSecret {
  const secret = `${secretPrefix}${randomBytes(32).toString('hex')}`;
  return { secret, verifier: verifierOf(secret), displayPrefix: secret.slice(0, displayPrefixLength) };
}

/**
 * The stored form of a secret. The secret carries 256 random bits, so a plain SHA-256
 * cannot be reversed or guessed, and it allows an indexed lookup on every request.
 */
export function verifierOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
