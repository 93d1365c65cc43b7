import type { CreditBucket, Plan, Tx } from '@svc/db';
import { grantCredits } from '../credits/grant-credits.ts';
import { insertApiKey } from '../keys/create-api-key.ts';
import type { ServiceContext } from '../shared/context.ts';
import { accountIdPrefix, newId } from '../shared/ids.ts';
import { periodOf } from '../shared/period.ts';

export interface CreateAccountOptions {
  plan: Plan;
  /** Starting credits, placed in `bucket`. */
  credits?: number;
  bucket?: CreditBucket;
  keyName?: string;
  isDemo?: boolean;
}

export interface CreatedAccount {
  accountId: string;
  /** The first key's secret, shown once. */
  apiKey: string;
}

/**
 * Opens an account with its first API key. The current month counts as already reset:
 * monthly allowances start with the next calendar month, and starting credits are granted
 * explicitly.
 */
export async function createAccount(ctx: ServiceContext, options: CreateAccountOptions): Promise<CreatedAccount> {
  return ctx.db.$transaction((tx) => openAccount(tx, options, ctx.clock()));
}

/** The account creation itself, inside the caller's transaction. */
export async function openAccount(tx: Tx, options: CreateAccountOptions, now: Date): Promise<CreatedAccount> {
  const account = await tx.account.create({
    data: { id: newId(accountIdPrefix), plan: options.plan, isDemo: options.isDemo ?? false, createdAt: now },
  });
  await tx.creditPeriodReset.create({ data: { accountId: account.id, period: periodOf(now) } });
  if (options.credits && options.credits > 0) {
    await grantCredits(tx, { accountId: account.id, bucket: options.bucket ?? 'trial', amount: options.credits });
  }
  const key = await insertApiKey(tx, { accountId: account.id, name: options.keyName ?? 'Default key' }, now);
  return { accountId: account.id, apiKey: key.secret };
}
