import { idPattern, webhookIdPrefix } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { OwnedWebhook } from './owned-webhook.ts';

export type DeleteWebhookOptions = OwnedWebhook;

/**
 * Removes a destination. Its deliveries and attempt log go with it (foreign keys cascade),
 * so undelivered events are dropped; a queued attempt task then finds nothing to send.
 */
export async function deleteWebhook(ctx: ServiceContext, { accountId, webhookId }: DeleteWebhookOptions): Promise<void> {
  if (!idPattern(webhookIdPrefix).test(webhookId)) throw notFound();
  const deleted = await ctx.db.webhook.deleteMany({ where: { id: webhookId, accountId } });
  if (deleted.count === 0) throw notFound();
}
