import { randomBytes } from 'node:crypto';

/** A new identifier: the resource prefix and 32 lowercase hex characters (spec 2.1). */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

export const accountIdPrefix = 'acct_';
