import { verifierOf } from './secret.ts';
import type { ServiceContext } from '../shared/context.ts';
import { authLinkSecretPattern } from './session-rules.ts';

export interface DescribeSignInLinkOptions {
  /** The secret from the link's path. */
  secret: string;
}

/** Whom a usable link signs in: the account's address (or its id when it has none), or the address a new account gets. */
export type SignInLinkDescription = { usable: true; accountLabel: string; newAccount: boolean } | { usable: false };

/**
 * Reads a sign-in link without using it. Opening a link only shows whom it signs in; the
 * browser must then ask for the sign-in (openSignInLink), so a mail scanner that fetches the
 * link, or a page of another site that navigates to it, leaves it usable and signs nobody in.
 */
export async function describeSignInLink(ctx: ServiceContext, { secret }: DescribeSignInLinkOptions): Promise<SignInLinkDescription> {
  if (!authLinkSecretPattern.test(secret)) return { usable: false };
  const link = await ctx.db.authLink.findFirst({
    where: { verifier: verifierOf(secret), purpose: 'sign_in', usedAt: null, expiresAt: { gt: ctx.clock() } },
    select: { email: true, account: { select: { id: true, email: true, status: true } } },
  });
  if (!link) return { usable: false };
  if (!link.account) return link.email ? { usable: true, accountLabel: link.email, newAccount: true } : { usable: false };
  if (link.account.status !== 'active') return { usable: false };
  return { usable: true, accountLabel: link.account.email ?? link.account.id, newAccount: false };
}
