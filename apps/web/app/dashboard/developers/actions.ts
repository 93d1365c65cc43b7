'use server';
// The Developers page's writes: API keys and webhook destinations, each through its core use-case.
import { KeyId, NewApiKey, NewWebhook, WebhookEventType, WebhookId } from '@svc/contracts';
import {
  createApiKey,
  createWebhook,
  deleteWebhook,
  disableWebhook,
  enableWebhook,
  revokeApiKey,
  rotateWebhookSecret,
  testWebhook,
  updateApiKey,
} from '@svc/core';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { formFields, sessionAction } from '../../../src/dashboard/actions.ts';

const page = '/dashboard/developers';

export interface CreatedSecret {
  id: string;
  secret: string;
  displayPrefix: string;
}

export const createKey = sessionAction(z.object({ name: NewApiKey.shape.name }), async ({ name }, { ctx, accountId }): Promise<CreatedSecret> => {
  const { key, secret } = await createApiKey(ctx, { accountId, name });
  revalidatePath(page);
  return { id: key.id, secret, displayPrefix: key.displayPrefix };
});

export const updateKey = sessionAction(
  z.object({ key_id: KeyId, name: NewApiKey.shape.name, monthly_overage_cap: formFields.optionalInt(1, 2_147_483_647) }),
  async ({ key_id, name, monthly_overage_cap }, { ctx, accountId }) => {
    await updateApiKey(ctx, { accountId, keyId: key_id, changes: { name, monthly_overage_cap } });
    revalidatePath(page);
    return null;
  },
);

export const revokeKey = sessionAction(z.object({ key_id: KeyId }), async ({ key_id }, { ctx, accountId }) => {
  await revokeApiKey(ctx, { accountId, keyId: key_id });
  revalidatePath(page);
  return null;
});

export const createDestination = sessionAction(
  z.object({ url: NewWebhook.shape.url, events: formFields.many(WebhookEventType).pipe(z.array(WebhookEventType).min(1, 'Choose at least one event')) }),
  async ({ url, events }, { ctx, accountId }): Promise<CreatedSecret> => {
    const { webhook, secret } = await createWebhook(ctx, { accountId, request: { url, events } });
    revalidatePath(page);
    return { id: webhook.id, secret, displayPrefix: webhook.displayPrefix };
  },
);

const OneWebhook = z.object({ webhook_id: WebhookId });

export const setDestinationEnabled = sessionAction(OneWebhook.extend({ enabled: z.enum(['true', 'false']) }), async ({ webhook_id, enabled }, { ctx, accountId }) => {
  const options = { accountId, webhookId: webhook_id };
  await (enabled === 'true' ? enableWebhook(ctx, options) : disableWebhook(ctx, options));
  revalidatePath(page);
  return null;
});

export const rotateDestinationSecret = sessionAction(OneWebhook, async ({ webhook_id }, { ctx, accountId }): Promise<CreatedSecret> => {
  const { webhook, secret } = await rotateWebhookSecret(ctx, { accountId, webhookId: webhook_id });
  revalidatePath(page);
  return { id: webhook.id, secret, displayPrefix: webhook.displayPrefix };
});

export const sendTestEvent = sessionAction(OneWebhook, async ({ webhook_id }, { ctx, accountId }) => {
  const result = await testWebhook(ctx, { accountId, webhookId: webhook_id });
  revalidatePath(page);
  return result;
});

export const deleteDestination = sessionAction(OneWebhook, async ({ webhook_id }, { ctx, accountId }) => {
  await deleteWebhook(ctx, { accountId, webhookId: webhook_id });
  revalidatePath(page);
  return null;
});
