import { sealSecret, secretsKeys, webhookSecretPlace } from '../settings/sealed-secrets.ts';
import type { ServiceContext } from '../shared/context.ts';
import { newWebhookSecret, rotationOverlapMs } from './webhook-secret.ts';
import type { WebhookWithSecret } from './create-webhook.ts';
import { lockOwnedWebhook, type OwnedWebhook } from './owned-webhook.ts';

export type RotateWebhookSecretOptions = OwnedWebhook;

/**
 * A new secret signs at once; the one it replaces keeps signing for 24 hours. Rotating
 * again during an overlap makes the replaced secret the previous one at once, so the
 * oldest is dropped and only the last two ever sign. Both stay sealed as stored.
 */
export async function rotateWebhookSecret(ctx: ServiceContext, options: RotateWebhookSecretOptions): Promise<WebhookWithSecret> {
  const now = ctx.clock();
  const { secret, displayPrefix } = newWebhookSecret();
  const webhook = await ctx.db.$transaction(async (tx) => {
    const current = await lockOwnedWebhook(tx, options);
    return tx.webhook.update({
      where: { id: current.id },
      data: {
        secret: sealSecret(secretsKeys(ctx.config.secrets), secret, webhookSecretPlace(current.id)),
        displayPrefix,
        previousSecret: current.secret,
        previousSecretExpiresAt: new Date(now.getTime() + rotationOverlapMs),
      },
    });
  });
  return { webhook, secret };
}
