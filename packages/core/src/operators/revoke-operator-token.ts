import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';

export interface RevokeOperatorTokenOptions {
  tokenId: string;
}

/** Revokes a token at once (its next request answers 401); repeating keeps the first revoked_at. */
export async function revokeOperatorToken(ctx: ServiceContext, { tokenId }: RevokeOperatorTokenOptions): Promise<{ id: string; revokedAt: Date }> {
  await ctx.db.operatorToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: ctx.clock() } });
  const token = await ctx.db.operatorToken.findUnique({ where: { id: tokenId } });
  if (!token?.revokedAt) throw notFound();
  return { id: token.id, revokedAt: token.revokedAt };
}
