import { idPattern, webhookIdPrefix } from '@svc/contracts';
import type { DbOrTx } from '@svc/db';
import { notFound } from '../shared/errors.ts';
import type { WebhookRecord } from '../shared/records.ts';

export interface OwnedWebhook {
  accountId: string;
  webhookId: string;
}

/** Finds an owned destination; malformed, foreign and missing ids are the same 404. */
export async function findOwnedWebhook(db: DbOrTx, { accountId, webhookId }: OwnedWebhook): Promise<WebhookRecord> {
  if (!idPattern(webhookIdPrefix).test(webhookId)) throw notFound();
  const webhook = await db.webhook.findFirst({ where: { id: webhookId, accountId } });
  if (!webhook) throw notFound();
  return webhook;
}

/** The same lookup holding the row lock until the transaction ends. */
export async function lockOwnedWebhook(tx: DbOrTx, owned: OwnedWebhook): Promise<WebhookRecord> {
  if (!idPattern(webhookIdPrefix).test(owned.webhookId)) throw notFound();
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM webhooks WHERE id = ${owned.webhookId} AND account_id = ${owned.accountId} FOR UPDATE`;
  if (rows.length === 0) throw notFound();
  return findOwnedWebhook(tx, owned);
}
