import type { ServiceContext } from '../shared/context.ts';
import type { ApiKeyRecord } from '../shared/records.ts';

export interface ListKeysOfAccountsOptions {
  accountIds: readonly string[];
}

/**
 * Every key of several accounts in one query whatever their number (the operator API batches a
 * page of accounts through it), revoked ones included, newest first.
 */
export async function listKeysOfAccounts(ctx: ServiceContext, { accountIds }: ListKeysOfAccountsOptions): Promise<ApiKeyRecord[]> {
  return ctx.db.apiKey.findMany({ where: { accountId: { in: [...accountIds] } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}
