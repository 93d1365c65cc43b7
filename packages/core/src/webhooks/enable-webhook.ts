import type { Webhook } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { findOwnedWebhook, type OwnedWebhook, toWebhookView } from './webhook-view.ts';

export type EnableWebhookOptions = OwnedWebhook;

/** Resumes deliveries of new events and resets the failure count; repeating returns the same answer. */
export async function enableWebhook(ctx: ServiceContext, options: EnableWebhookOptions): Promise<Webhook> {
  const { accountId, webhookId } = options;
  await ctx.db.webhook.updateMany({
    where: { id: webhookId, accountId },
    data: { status: 'enabled', disabledReason: null, failureCount: 0 },
  });
  return toWebhookView(await findOwnedWebhook(ctx.db, options), ctx.clock());
}
