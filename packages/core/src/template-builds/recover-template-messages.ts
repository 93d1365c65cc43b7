import { templateMessageTaskKey } from '../tasks/catalog.ts';
import { enqueue } from '../tasks/enqueue.ts';
import type { ServiceContext } from '../shared/context.ts';

/**
 * Takes up AI messages whose worker vanished (the lease ran out while running or previewing):
 * each is queued again, and the claim in runTemplateMessage starts its pipeline over. Its
 * credits stay held, so it is settled or released once, whichever claim ends it.
 */
export async function recoverTemplateMessages(ctx: ServiceContext): Promise<number> {
  const stale = await ctx.db.templateMessage.findMany({
    where: { state: { in: ['running', 'previewing'] }, leaseExpiresAt: { lt: ctx.clock() } },
    select: { id: true },
    take: 500,
  });
  for (const message of stale) await enqueue(ctx.db, 'template_message', { message_id: message.id }, { jobKey: templateMessageTaskKey(message.id) });
  if (stale.length > 0) ctx.logger.warn('AI messages taken up again after a lost worker', { count: stale.length });
  return stale.length;
}
