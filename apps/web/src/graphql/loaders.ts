import {
  type AccountSummary,
  type ApiKeyRecord,
  listKeysOfAccounts,
  listRecentJobsOfAccounts,
  type RenderJobRecord,
  type ServiceContext,
  showAccounts,
} from '@svc/core';
import DataLoader from 'dataloader';

/**
 * Per-request batch loaders: every account, key list or job list a query touches is read in
 * one core call per kind, however many objects the page holds (a page of 100 accounts with
 * their keys is a fixed number of queries).
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
      const keys = await listKeysOfAccounts(ctx, { accountIds: ids });
      return ids.map((id) => keys.filter((key) => key.accountId === id));
    }),
    recentJobsOfAccount: new DataLoader(async (keys) => {
      const requests = keys.map((key) => {
        const [accountId = '', count = '0'] = key.split(':');
        return { accountId, count: Number(count) };
      });
      const most = Math.max(...requests.map((request) => request.count));
      const jobs = await listRecentJobsOfAccounts(ctx, { accountIds: requests.map((request) => request.accountId), count: most });
      return requests.map(({ accountId, count }) => jobs.filter((job) => job.accountId === accountId).slice(0, count));
    }),
  };
}
