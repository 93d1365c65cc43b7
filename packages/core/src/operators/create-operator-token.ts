import type { ServiceContext } from '../shared/context.ts';
import { newId } from '../shared/ids.ts';
import { newOperatorTokenSecret, operatorTokenIdPrefix } from './operator-token-secret.ts';

export interface CreateOperatorTokenOptions {
  /** Who or what holds the token (a person, a support tool); recorded with every action it makes. */
  name: string;
}

export interface CreatedOperatorToken {
  id: string;
  /** The secret, shown once; only its SHA-256 verifier is stored. */
  token: string;
}

/** A new token for the internal GraphQL API. */
export async function createOperatorToken(ctx: ServiceContext, { name }: CreateOperatorTokenOptions): Promise<CreatedOperatorToken> {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new RangeError('the token name must be 1 to 100 characters');
  const { token, verifier } = newOperatorTokenSecret();
  const id = newId(operatorTokenIdPrefix);
  await ctx.db.operatorToken.create({ data: { id, name: trimmed, verifier, createdAt: ctx.clock() } });
  return { id, token };
}
