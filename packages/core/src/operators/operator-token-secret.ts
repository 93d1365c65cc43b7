import { randomBytes } from 'node:crypto';
import { verifierOf } from '../auth/secret.ts';

/** Operator tokens look unlike API keys, so neither can be mistaken for the other in a log or a header. */
export const operatorTokenPrefix = 'svc_op_v1_';
export const operatorTokenPattern = /^svc_op_v1_[0-9a-f]{64}$/;
export const operatorTokenIdPrefix = 'optok_';

export function newOperatorTokenSecret(): { token: string; verifier: string } {
  const token = `${operatorTokenPrefix}${randomBytes(32).toString('hex')}`;
  return { token, verifier: verifierOf(token) };
}
