import { randomBytes } from 'node:crypto';

/** A new identifier: the resource prefix and 32 lowercase hex characters (the contract's identifier rule). */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

export const accountIdPrefix = 'acct_';
