import type { ServiceContext } from '../shared/context.ts';
import { type CreatedAccount, openAccount } from './create-account.ts';

/** Trial credits of the demo account created on first boot. */
export const demoTrialCredits = 50;

/**
 * On first boot against an empty database, opens a demo account with trial credits so a
 * new user can render at once. Returns the account and its key (shown once), or null
 * when any account already exists.
 */
export async function ensureDemoAccount(ctx: ServiceContext): Promise<CreatedAccount | null> {
  // two processes booting together must not both create one
  return ctx.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(4711003)`;
    if ((await tx.account.count()) > 0) return null;
    return openAccount(tx, { plan: 'free', credits: demoTrialCredits, bucket: 'trial', keyName: 'Demo key', isDemo: true }, ctx.clock());
  });
}
