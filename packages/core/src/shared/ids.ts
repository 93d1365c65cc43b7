import { randomBytes } from 'node:crypto';
import { groupIdPrefixes, renderIdPrefixes } from '@svc/contracts';

/** A new identifier: the resource prefix and 32 lowercase hex characters (the contract's identifier rule). */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

export const accountIdPrefix = 'acct_';

/** A new render job's id, under the contract's prefix of its kind. */
export const newRenderJobId = (kind: keyof typeof renderIdPrefixes) => newId(renderIdPrefixes[kind]);

/** A new group's id, under the contract's prefix of its kind. */
export const newGroupId = (kind: keyof typeof groupIdPrefixes) => newId(groupIdPrefixes[kind]);
