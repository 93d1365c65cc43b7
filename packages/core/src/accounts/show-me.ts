import { accountProvenanceKey } from '../settings/provenance-key.ts';
import type { ServiceContext } from '../shared/context.ts';
import { type AccountSummary, showAccount } from './show-account.ts';

/** The calling account as it sees itself (GET /v1/me). */
export interface AccountOwnView extends AccountSummary {
  /** The key of its files' data hashes (hex), with which it verifies a file against its data. */
  provenanceKey: string;
}

export async function showMe(ctx: ServiceContext, accountId: string): Promise<AccountOwnView> {
  const [summary, key] = await Promise.all([showAccount(ctx, accountId), accountProvenanceKey(ctx, accountId)]);
  return { ...summary, provenanceKey: key.toString('hex') };
}
