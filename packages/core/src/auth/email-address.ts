import { maxEmailLength } from '@svc/contracts';
import { DomainError } from '../shared/errors.ts';

// The HTML form rule for an address (WHATWG "valid e-mail address"), plus a dot in the domain:
// ASCII only, no quoting, no whitespace or line breaks (nothing can reach a mail header).
const addressPattern =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** The address as stored and compared (lower case), or 422 invalid_email. */
export function normalizeEmail(text: string): string {
  if (text.length > maxEmailLength || !addressPattern.test(text)) throw new DomainError('invalid_email');
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
  const local = /^\/(?![/\\])[\x21-\x7e]*$/.test(next) && !next.includes('\\');
  if (!local || new URL(next, base).origin !== base) {
    throw new DomainError('invalid_request', { details: [{ field: 'next', reason: 'invalid value' }] });
  }
  return next;
}
