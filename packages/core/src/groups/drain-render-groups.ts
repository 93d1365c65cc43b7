import type { ServiceContext } from '../shared/context.ts';
import { admitPendingMembers } from './admit-members.ts';
import { lockAccountAdmissions } from '../renders/admit-render-job.ts';

export interface DrainRenderGroupsOptions {
  /** One account; omitted, every account with pending members (the periodic sweep). */
  accountId?: string;
}

/**
 * Background admission of pending group members (the contract's group lifecycle): queued when a job of an account
 * with pending members ends, and swept every minute in case a worker died mid-drain. Each
 * account is drained in its own transaction under its row lock, like a create.
 */
export async function drainRenderGroups(ctx: ServiceContext, { accountId }: DrainRenderGroupsOptions = {}): Promise<number> {
  const accounts = accountId
    ? [accountId]
    : (await ctx.db.$queryRaw<{ account_id: string }[]>`SELECT DISTINCT account_id FROM render_group_members WHERE state = 'pending' LIMIT 1000`).map(
        (row) => row.account_id,
      );
  let admitted = 0;
  for (const id of accounts) {
    admitted += await ctx.db.$transaction(async (tx) => {
      await lockAccountAdmissions(tx, id);
      return admitPendingMembers(tx, { accountId: id, now: ctx.clock(), groupConcurrency: ctx.config.groupConcurrency, metrics: ctx.metrics });
    });
  }
  return admitted;
}
