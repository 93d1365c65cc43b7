import type { ServiceContext } from '../shared/context.ts';
import type { WebhookRecord } from '../shared/records.ts';
import { findOwnedWebhook, type OwnedWebhook } from './owned-webhook.ts';

export type GetWebhookOptions = OwnedWebhook;

export async function getWebhook(ctx: ServiceContext, options: GetWebhookOptions): Promise<WebhookRecord> {
  return findOwnedWebhook(ctx.db, options);
}
