import { maxWebhooks, type NewWebhook, webhookEventTypes, webhookIdPrefix } from '@svc/contracts';
import { vetUrl } from '../egress/outgoing-url-policy.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { WebhookRecord } from '../shared/records.ts';
import { newWebhookSecret } from './webhook-secret.ts';
import { sealSecret, secretsKeys, webhookSecretPlace } from '../settings/sealed-secrets.ts';

/** A destination with its signing secret, which is shown only on creation and rotation. */
export interface WebhookWithSecret {
  webhook: WebhookRecord;
  secret: string;
}

export interface CreateWebhookOptions {
  accountId: string;
  request: NewWebhook;
}

/**
 * Creates an enabled destination and returns its signing secret, shown only here and on
 * rotation. The URL must pass the egress policy now (it is checked again on every
 * delivery); a refusal names the policy code in the field: url.<code>. The secret is stored
 * sealed and bound to the webhook's id (settings/sealed-secrets.ts).
 */
export async function createWebhook(ctx: ServiceContext, { accountId, request }: CreateWebhookOptions): Promise<WebhookWithSecret> {
  const vetted = await vetUrl(request.url, { allowlist: ctx.config.egressAllowlist });
  if (!vetted.ok) throw new DomainError('invalid_request', { details: [{ field: `url.${vetted.refusal}`, reason: 'invalid value' }] });
  const events = [...new Set(request.events ?? webhookEventTypes)].sort();
  const { secret, displayPrefix } = newWebhookSecret();
  const webhook = await ctx.db.$transaction(async (tx) => {
    // the account row lock serialises concurrent creates, so the limit cannot be overrun
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    if ((await tx.webhook.count({ where: { accountId } })) >= maxWebhooks) throw new DomainError('webhook_limit_reached');
    const id = newId(webhookIdPrefix);
    return tx.webhook.create({
      data: { id, accountId, url: request.url, events, secret: sealSecret(secretsKeys(ctx.config.secrets), secret, webhookSecretPlace(id)), displayPrefix, createdAt: ctx.clock() },
    });
  });
  return { webhook, secret };
}
