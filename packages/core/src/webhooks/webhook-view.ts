import { idPattern, type Webhook as WebhookView, type WebhookEventType, webhookIdPrefix } from '@svc/contracts';
import type { DbOrTx, Webhook } from '@svc/db';
import { notFound } from '../shared/errors.ts';

/** The public shape of a destination (spec 2.11); an overlap that has ended shows as null. */
export function toWebhookView(webhook: Webhook, now: Date): WebhookView {
  const overlap = webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > now ? webhook.previousSecretExpiresAt : null;
  return {
    id: webhook.id,
    url: webhook.url,
    events: [...webhook.events].sort() as WebhookEventType[],
    status: webhook.status,
    disabled_reason: webhook.disabledReason,
    display_prefix: webhook.displayPrefix,
    last_delivery_at: webhook.lastDeliveryAt?.toISOString() ?? null,
    failure_count: webhook.failureCount,
    created_at: webhook.createdAt.toISOString(),
    previous_secret_expires_at: overlap?.toISOString() ?? null,
  };
}

export interface OwnedWebhook {
  accountId: string;
  webhookId: string;
}

/** Finds an owned destination; malformed, foreign and missing ids are the same 404. */
export async function findOwnedWebhook(db: DbOrTx, { accountId, webhookId }: OwnedWebhook): Promise<Webhook> {
  if (!idPattern(webhookIdPrefix).test(webhookId)) throw notFound();
  const webhook = await db.webhook.findFirst({ where: { id: webhookId, accountId } });
  if (!webhook) throw notFound();
  return webhook;
}

/** The same lookup holding the row lock until the transaction ends. */
export async function lockOwnedWebhook(tx: DbOrTx, owned: OwnedWebhook): Promise<Webhook> {
  if (!idPattern(webhookIdPrefix).test(owned.webhookId)) throw notFound();
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM webhooks WHERE id = ${owned.webhookId} AND account_id = ${owned.accountId} FOR UPDATE`;
  if (rows.length === 0) throw notFound();
  return findOwnedWebhook(tx, owned);
}
