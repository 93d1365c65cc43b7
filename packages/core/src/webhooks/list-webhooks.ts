import type { WebhookList } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { toWebhookView } from './webhook-view.ts';

export interface ListWebhooksOptions {
  accountId: string;
}

/** Every destination of the account (at most ten), most recently created first. */
export async function listWebhooks(ctx: ServiceContext, { accountId }: ListWebhooksOptions): Promise<WebhookList> {
  const rows = await ctx.db.webhook.findMany({ where: { accountId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  const now = ctx.clock();
  return { data: rows.map((row) => toWebhookView(row, now)) };
}
