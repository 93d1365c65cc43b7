import type { DbOrTx } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newAuthSecret } from './auth-secrets.ts';
import { authLinkLifetimeMs, authLinkSecretPrefix } from './session-rules.ts';

export type SignInLinkTarget = { accountId: string } | { email: string };

export interface SignInLink {
  url: string;
  expiresAt: Date;
}

/** Where a sign-in link points: a browser page, not an API route (it answers a redirect or a page). */
export const signInPath = '/auth/sign-in/';

/**
 * A one-use link that signs a browser into an account (or, for an address without an
 * account, opens a free one on first use). Only the link's verifier is stored.
 */
export async function createSignInLink(ctx: ServiceContext, target: SignInLinkTarget, db: DbOrTx = ctx.db): Promise<SignInLink> {
  if ('accountId' in target) {
    const account = await db.account.findUnique({ where: { id: target.accountId }, select: { id: true } });
    if (!account) throw new DomainError('not_found');
  }
  const now = ctx.clock();
  const expiresAt = new Date(now.getTime() + authLinkLifetimeMs);
  const { secret, verifier } = newAuthSecret(authLinkSecretPrefix);
  await db.authLink.create({
    data: {
      verifier,
      purpose: 'sign_in',
      accountId: 'accountId' in target ? target.accountId : null,
      email: 'email' in target ? target.email : null,
      createdAt: now,
      expiresAt,
    },
  });
  return { url: `${ctx.config.publicUrl}${signInPath}${secret}`, expiresAt };
}
