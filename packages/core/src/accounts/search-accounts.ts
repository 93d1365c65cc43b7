import { apiKeySecretPattern, idPattern } from '@svc/contracts';
import type { AccountStatus, Plan, Prisma } from '@svc/db';
import { secretPrefix, verifierOf } from '../keys/secret.ts';
import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { accountIdPrefix } from '../shared/ids.ts';
import { type Page, pageOf } from '../shared/records.ts';

export interface SearchAccountsOptions {
  /**
   * An account id, an email address (exact, any case), a whole API key, or the start of one as
   * shown back in display_prefix (svc_sk_v1_ and up to four hex characters; several accounts can match).
   */
  search?: string;
  plan?: Plan;
  status?: AccountStatus;
  limit: number;
  cursor?: string;
}

export interface AccountListItem {
  id: string;
  createdAt: Date;
}

/** Accounts, newest first, keyset-paged, for operators. */
export async function searchAccounts(ctx: ServiceContext, { search, plan, status, limit, cursor }: SearchAccountsOptions): Promise<Page<AccountListItem>> {
  const after = cursor ? decodeCursor(cursor, idPattern(accountIdPrefix)) : undefined;
  const text = search?.trim();
  const where: Prisma.AccountWhereInput = {
    ...(plan ? { plan } : {}),
    ...(status ? { status } : {}),
    ...(text ? { OR: matching(text) } : {}),
    ...(after ? { AND: [{ OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] } : {}),
  };
  const rows = await ctx.db.account.findMany({
    where,
    select: { id: true, createdAt: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return pageOf(rows, limit, encodeCursor);
}

function matching(text: string): Prisma.AccountWhereInput[] {
  if (text.startsWith(accountIdPrefix)) return [{ id: text }];
  if (text.includes('@')) return [{ email: text.toLowerCase() }];
  // a whole key is found by its verifier; a start of one by display_prefix (the scheme and four hex characters)
  if (apiKeySecretPattern.test(text)) return [{ apiKeys: { some: { verifier: verifierOf(text) } } }];
  if (text.startsWith(secretPrefix)) return [{ apiKeys: { some: { displayPrefix: { startsWith: text.slice(0, secretPrefix.length + 4) } } } }];
  return [{ id: text }];
}
