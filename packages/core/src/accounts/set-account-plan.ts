import type { Plan } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';

export interface SetAccountPlanOptions {
  accountId: string;
  plan: Plan;
}

/**
 * Moves an account to another plan. Nothing the account holds is removed: an account above a
 * smaller plan's brand kit count keeps its kits (it just cannot create more).
 */
export async function setAccountPlan(ctx: ServiceContext, { accountId, plan }: SetAccountPlanOptions): Promise<void> {
  const updated = await ctx.db.account.updateMany({ where: { id: accountId }, data: { plan } });
  if (updated.count === 0) throw notFound();
}
