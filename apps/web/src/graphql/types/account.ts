import type { AccountSummary, ApiKeyRecord } from '@svc/core';
import { apiKeyBody } from '../../http/views/api-keys.ts';
import { balancesBody } from '../../http/views/account.ts';
import { z } from 'zod';
import { builder } from '../builder.ts';
import { AccountStatusEnum, ApiKeyStatusEnum, PlanEnum } from './enums.ts';
import { RenderJob } from './render-job.ts';

type Balances = ReturnType<typeof balancesBody>;

const CreditBalances = builder.objectRef<Balances>('CreditBalances').implement({
  description: 'Credits by bucket, as GET /v1/me reports them.',
  fields: (t) => ({
    freeMonthly: t.exposeInt('free_monthly'),
    subscription: t.exposeInt('subscription'),
    trial: t.exposeInt('trial'),
    pack: t.exposeInt('pack'),
  }),
});

export const ApiKey = builder.objectRef<ApiKeyRecord>('ApiKey').implement({
  description: 'An API key as GET /v1/keys lists it; the secret is never stored, so never shown.',
  fields: (t) => ({
    id: t.exposeID('id'),
    accountId: t.exposeID('accountId'),
    name: t.string({ resolve: (key) => apiKeyBody(key).name }),
    displayPrefix: t.string({ resolve: (key) => apiKeyBody(key).display_prefix }),
    status: t.field({ type: ApiKeyStatusEnum, resolve: (key) => apiKeyBody(key).status }),
    createdAt: t.field({ type: 'DateTime', resolve: (key) => key.createdAt }),
    revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (key) => key.revokedAt }),
    lastUsedAt: t.field({ type: 'DateTime', nullable: true, resolve: (key) => key.lastUsedAt }),
    monthlyOverageCap: t.int({ nullable: true, resolve: (key) => apiKeyBody(key).monthly_overage_cap }),
  }),
});

export const Account = builder.objectRef<AccountSummary>('Account').implement({
  description: 'An account with its balances, keys and recent jobs.',
  fields: (t) => ({
    id: t.exposeID('id'),
    plan: t.field({ type: PlanEnum, resolve: (account) => account.plan }),
    status: t.field({ type: AccountStatusEnum, resolve: (account) => account.status }),
    email: t.string({ nullable: true, description: 'The proven email address.', resolve: (account) => account.email }),
    createdAt: t.field({ type: 'DateTime', resolve: (account) => account.createdAt }),
    suspendedAt: t.field({ type: 'DateTime', nullable: true, resolve: (account) => account.suspendedAt }),
    balances: t.field({ type: CreditBalances, resolve: (account) => balancesBody(account) }),
    reserved: t.int({ description: 'Credits held for jobs still queued or running.', resolve: (account) => account.reserved }),
    overageThisMonth: t.int({ description: 'Overage credits used this calendar month (UTC), all keys together.', resolve: (account) => account.overageThisMonth }),
    keys: t.field({
      type: [ApiKey],
      description: 'Every key of the account, revoked ones included, newest first (at most ten are active).',
      complexity: { field: 1, multiplier: 10 },
      resolve: (account, _args, { loaders }) => loaders.keysOfAccount.load(account.id),
    }),
    recentJobs: t.field({
      type: [RenderJob],
      description: 'The newest render jobs of the account, PDF and image together.',
      args: { first: t.arg.int({ required: true, defaultValue: 10, description: '1 to 50.', validate: z.number().int().min(1).max(50) }) },
      complexity: (args) => ({ field: 1, multiplier: args.first ?? 10 }),
      resolve: (account, { first }, { loaders }) => loaders.recentJobsOfAccount.load(`${account.id}:${first}`),
    }),
  }),
});

builder.objectField(RenderJob, 'account', (t) =>
  t.field({ type: Account, nullable: true, resolve: (job, _args, { loaders }) => loaders.account.load(job.accountId) }),
);
