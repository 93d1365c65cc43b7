import { emailAddressPattern, localPathPattern, maxEmailLength } from '@svc/contracts';
import { DomainError } from '../shared/errors.ts';

/** The address as stored and compared (lower case), or 422 invalid_email. */
export function normalizeEmail(text: string): string {
  if (text.length > maxEmailLength || !emailAddressPattern.test(text)) throw new DomainError('invalid_email');
  return text.toLowerCase();
}

/** Where a confirmed address sends the browser when the request names nowhere. */
export const defaultNextPath = '/account';

/**
 * A local path to redirect to, or 400 on `next`: one leading slash (not two, not a backslash,
 * which browsers read as another host), printable ASCII, resolving to this origin.
 */
export function safeNextPath(next: string | undefined): string {
  if (next === undefined) return defaultNextPath;
  const base = 'http://next.invalid';
  if (!localPathPattern.test(next) || new URL(next, base).origin !== base) {
    throw new DomainError('invalid_request', { details: [{ field: 'next', reason: 'invalid value' }] });
  }
  return next;
}
