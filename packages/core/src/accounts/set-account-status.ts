import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';

export interface SetAccountStatusOptions {
  accountId: string;
  suspended: boolean;
}

/**
 * Suspends or reinstates an account. A suspended account's keys answer 403 account_suspended;
 * suspension ends its browser sessions for good (reinstating does not bring them back).
 */
export async function setAccountStatus(ctx: ServiceContext, { accountId, suspended }: SetAccountStatusOptions): Promise<void> {
  const now = ctx.clock();
  await ctx.db.$transaction(async (tx) => {
    const updated = await tx.account.updateMany({
      where: { id: accountId },
      data: suspended ? { status: 'suspended', suspendedAt: now } : { status: 'active', suspendedAt: null },
    });
    if (updated.count === 0) throw notFound();
    if (suspended) {
      await tx.session.updateMany({ where: { accountId, endedAt: null }, data: { endedAt: now, endReason: 'suspended' } });
    }
  });
}
