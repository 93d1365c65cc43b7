import type { CreditBucket, DbOrTx } from '@svc/db';

export interface GrantCreditsOptions {
  accountId: string;
  bucket: CreditBucket;
  amount: number;
}

/** Adds credits to one bucket and records the grant in the ledger. */
export async function grantCredits(db: DbOrTx, { accountId, bucket, amount }: GrantCreditsOptions): Promise<void> {
  if (!Number.isInteger(amount) || amount < 1) throw new RangeError('grant amount must be a positive integer');
  await db.creditBalance.upsert({
    where: { accountId_bucket: { accountId, bucket } },
    create: { accountId, bucket, balance: amount },
    update: { balance: { increment: amount } },
  });
  await db.creditLedgerEntry.create({ data: { accountId, kind: 'grant', source: bucket, amount } });
}
