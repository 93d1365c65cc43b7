import type { ServiceContext } from '../shared/context.ts';
import type { RenderJobRecord } from '../shared/records.ts';

export interface ListRecentJobsOfAccountsOptions {
  accountIds: readonly string[];
  /** How many of each account's newest jobs. */
  count: number;
}

/**
 * The newest `count` render jobs of each of several accounts, PDF and image together, newest
 * first, in two queries whatever their number (the operator API batches a page of accounts
 * through it).
 */
export async function listRecentJobsOfAccounts(ctx: ServiceContext, { accountIds, count }: ListRecentJobsOfAccountsOptions): Promise<RenderJobRecord[]> {
  // the newest `count` jobs of each account, in one statement on the (account, kind, created) index
  const ranked = await ctx.db.$queryRaw<{ id: string }[]>`
    SELECT id FROM (
      SELECT id, row_number() OVER (PARTITION BY account_id ORDER BY created_at DESC, id DESC) AS rank
        FROM render_jobs WHERE account_id = ANY(${[...accountIds]}::text[])) AS jobs
     WHERE rank <= ${count}`;
  return ctx.db.renderJob.findMany({
    where: { id: { in: ranked.map((row) => row.id) } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}
