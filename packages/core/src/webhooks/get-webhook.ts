import type { Webhook } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { findOwnedWebhook, type OwnedWebhook, toWebhookView } from './webhook-view.ts';

export type GetWebhookOptions = OwnedWebhook;

export async function getWebhook(ctx: ServiceContext, options: GetWebhookOptions): Promise<Webhook> {
  return toWebhookView(await findOwnedWebhook(ctx.db, options), ctx.clock());
}
