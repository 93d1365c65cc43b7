import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';

export interface SetAccountStatusOptions {
  accountId: string;
  suspended: boolean;
}

/** Suspends or reinstates an account. A suspended account's keys answer 403 account_suspended. */
export async function setAccountStatus(ctx: ServiceContext, { accountId, suspended }: SetAccountStatusOptions): Promise<void> {
  const updated = await ctx.db.account.updateMany({
    where: { id: accountId },
    data: suspended ? { status: 'suspended', suspendedAt: ctx.clock() } : { status: 'active', suspendedAt: null },
  });
  if (updated.count === 0) throw notFound();
}
