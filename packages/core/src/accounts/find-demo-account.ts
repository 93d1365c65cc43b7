import type { ServiceContext } from '../shared/context.ts';

/** The id of the demo account opened on first boot, while it is active; null otherwise. */
export async function findDemoAccount(ctx: ServiceContext): Promise<string | null> {
  const demo = await ctx.db.account.findFirst({ where: { isDemo: true, status: 'active' }, orderBy: { createdAt: 'asc' }, select: { id: true } });
  return demo?.id ?? null;
}
