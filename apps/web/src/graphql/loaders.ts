import { type AccountSummary, type ApiKeyRecord, type RenderJobRecord, type ServiceContext, showAccounts } from '@svc/core';
import DataLoader from 'dataloader';

/**
 * Per-request batch loaders: every account, key list or job list a query touches is read in
 * one query per kind, however many objects the page holds (a page of 100 accounts with their
 * keys is a fixed number of queries).
 */
export interface Loaders {
  account: DataLoader<string, AccountSummary | null>;
  keysOfAccount: DataLoader<string, ApiKeyRecord[]>;
  /** Key: account id and count, as "acct_...:10". */
  recentJobsOfAccount: DataLoader<string, RenderJobRecord[]>;
}

export function createLoaders(ctx: ServiceContext): Loaders {
  return {
    account: new DataLoader(async (ids) => {
      const found = new Map((await showAccounts(ctx, ids)).map((summary) => [summary.id, summary]));
      return ids.map((id) => found.get(id) ?? null);
    }),
    keysOfAccount: new DataLoader(async (ids) => {
      const keys = await ctx.db.apiKey.findMany({ where: { accountId: { in: [...ids] } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return ids.map((id) => keys.filter((key) => key.accountId === id));
    }),
    recentJobsOfAccount: new DataLoader(async (keys) => {
      const requests = keys.map((key) => {
        const [accountId = '', count = '0'] = key.split(':');
        return { accountId, count: Number(count) };
      });
      const most = Math.max(...requests.map((request) => request.count));
      // the newest `most` jobs of each account, in one statement on the (account, kind, created) index
      const ranked = await ctx.db.$queryRaw<{ id: string }[]>`
        SELECT id FROM (
          SELECT id, row_number() OVER (PARTITION BY account_id ORDER BY created_at DESC, id DESC) AS rank
            FROM render_jobs WHERE account_id = ANY(${requests.map((request) => request.accountId)}::text[])) AS jobs
         WHERE rank <= ${most}`;
      const jobs = await ctx.db.renderJob.findMany({
        where: { id: { in: ranked.map((row) => row.id) } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return requests.map(({ accountId, count }) => jobs.filter((job) => job.accountId === accountId).slice(0, count));
    }),
  };
}
