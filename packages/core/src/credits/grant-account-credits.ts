import type { CreditBucket } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { grantCredits } from './grant-credits.ts';

export interface GrantAccountCreditsOptions {
  accountId: string;
  bucket: CreditBucket;
  amount: number;
}

/** An operator's grant: credits added to one bucket of an existing account, with its ledger entry, in one transaction. */
export async function grantAccountCredits(ctx: ServiceContext, options: GrantAccountCreditsOptions): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    const account = await tx.account.findUnique({ where: { id: options.accountId }, select: { id: true } });
    if (!account) throw notFound();
    await grantCredits(tx, options);
  });
}
