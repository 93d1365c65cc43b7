import { randomBytes } from 'node:crypto';
import { verifierOf } from './secret.ts';

export interface NewAuthSecret {
  /** Travels only to the browser (cookie) or in the link; never stored. */
  secret: string;
  /** SHA-256 of the secret: what the database keeps and looks up. */
  verifier: string;
}

export function newAuthSecret(prefix: string): NewAuthSecret {
  const secret = `${prefix}${randomBytes(32).toString('hex')}`;
  return { secret, verifier: verifierOf(secret) };
}

/** A CSRF token: random, and compared in constant time. */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}
