import type { ServiceContext } from '../shared/context.ts';
import type { WebhookRecord } from '../shared/records.ts';

export interface ListWebhooksOptions {
  accountId: string;
}

/** Every destination of the account (at most ten), most recently created first. */
export async function listWebhooks(ctx: ServiceContext, { accountId }: ListWebhooksOptions): Promise<WebhookRecord[]> {
  return ctx.db.webhook.findMany({ where: { accountId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}
