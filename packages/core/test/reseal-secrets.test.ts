// Webhook signing secrets at rest: sealed rows, plain and v1 rows from before sealing and row
// binding, a key rotation with SVC_SECRETS_KEY_PREVIOUS, and the reseal that moves every row to
// the current key bound to its row, with deliveries signing with the customer's secret
// throughout; a sealed value copied into another row does not sign there.
import { createHmac, randomBytes } from 'node:crypto';
import { createWebhook, fanOutRenderEvent, resealSecrets, rotateWebhookSecret } from '@svc/core';
import { claimWebhookAttempt } from '../src/webhooks/claim-webhook-attempt.ts';
import { finishRender } from '../src/renders/finish-render.ts';
import { isSealed, openSecret, parseKey, secretsKeys, webhookSecretPlace } from '../src/settings/sealed-secrets.ts';
import { sealV1 } from './sealed-v1.ts';
import { newId } from '../src/shared/ids.ts';
import { signatureHeader } from '../src/webhooks/webhook-secret.ts';
import { describe, expect, it } from 'vitest';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;
const oldKey = randomBytes(32).toString('base64');
const newKey = randomBytes(32).toString('hex');
const useKeys = (key: string, previousKey?: string) => {
  ctx.config = { ...ctx.config, egressAllowlist: [{ hostname: '127.0.0.1', port: 9 }], secrets: { key, previousKey, keyFile: '/nonexistent/secrets.key' } };
};

/** The signature a delivery of the webhook's next event carries, for a fixed body and time. */
async function deliverySignatures(accountId: string, webhookId: string): Promise<string> {
  const jobId = newId('pdf_');
  await ctx.db.renderJob.create({ data: { id: jobId, accountId, kind: 'pdf', filename: 'doc', options: {}, credit: 'none' } });
  await ctx.db.$transaction((tx) => finishRender(tx, { jobId, attempt: null, outcome: { status: 'cancelled' }, now: ctx.clock(), metrics: ctx.metrics }));
  await fanOutRenderEvent(ctx, { jobId });
  const event = await ctx.db.renderEvent.findFirstOrThrow({ where: { jobId } });
  const delivery = await ctx.db.webhookDelivery.findFirstOrThrow({ where: { webhookId, eventId: event.id } });
  const claim = await claimWebhookAttempt(ctx, delivery.id);
  return signatureHeader(claim!.secrets, '{"x":1}', new Date('2026-03-15T12:00:00Z'));
}
const expected = (secrets: string[]) =>
  ['t=1773576000', ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update('1773576000.{"x":1}').digest('hex')}`)].join(',');

describe('sealed webhook secrets', () => {
  it('stores none in plain, signs through a key rotation, and reseals every row under the current key', async () => {
    useKeys(oldKey);
    const account = await accountWith(ctx, { plan: 'scale' });
    const first = await createWebhook(ctx, { accountId: account.accountId, request: { url: 'https://127.0.0.1:9/a' } });
    const rotated = await rotateWebhookSecret(ctx, { accountId: account.accountId, webhookId: first.webhook.id });
    const legacy = await createWebhook(ctx, { accountId: account.accountId, request: { url: 'https://127.0.0.1:9/b' } });
    // a row stored before sealing existed, and one sealed before values were bound to their row
    await ctx.db.webhook.update({ where: { id: legacy.webhook.id }, data: { secret: legacy.secret } });
    const unbound = await createWebhook(ctx, { accountId: account.accountId, request: { url: 'https://127.0.0.1:9/c' } });
    await ctx.db.webhook.update({ where: { id: unbound.webhook.id }, data: { secret: sealV1(parseKey(oldKey, 'K'), unbound.secret) } });
    const rows = async () => ctx.db.webhook.findMany({ where: { accountId: account.accountId }, orderBy: { id: 'asc' } });
    const stored = await ctx.db.webhook.findUniqueOrThrow({ where: { id: first.webhook.id } });
    expect(isSealed(stored.secret) && isSealed(stored.previousSecret!)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(first.secret.slice(10));
    expect(JSON.stringify(stored)).not.toContain(rotated.secret.slice(10));

    // rotating the key: the previous one still opens what it sealed
    useKeys(newKey, oldKey);
    expect(await deliverySignatures(account.accountId, first.webhook.id)).toBe(expected([rotated.secret, first.secret]));
    expect(await deliverySignatures(account.accountId, legacy.webhook.id)).toBe(expected([legacy.secret]));
    expect(await deliverySignatures(account.accountId, unbound.webhook.id)).toBe(expected([unbound.secret]));

    const before = await rows();
    expect(await resealSecrets(ctx)).toEqual({ checked: 4, resealed: 4, unreadable: 0 });
    expect(await resealSecrets(ctx)).toEqual({ checked: 4, resealed: 0, unreadable: 0 });
    const after = await rows();
    for (const [index, row] of after.entries()) {
      expect(row.secret.startsWith('svc_sealed_v2.')).toBe(true);
      expect(row.secret).not.toBe(before[index]!.secret);
    }

    // the previous key can go: every row opens with the current one alone
    useKeys(newKey);
    const keys = secretsKeys(ctx.config.secrets);
    expect(after.map((row) => openSecret(keys, row.secret, webhookSecretPlace(row.id))).sort()).toEqual([rotated.secret, legacy.secret, unbound.secret].sort());
    expect(await deliverySignatures(account.accountId, first.webhook.id)).toBe(expected([rotated.secret, first.secret]));
    expect(await deliverySignatures(account.accountId, legacy.webhook.id)).toBe(expected([legacy.secret]));
    expect(await deliverySignatures(account.accountId, unbound.webhook.id)).toBe(expected([unbound.secret]));

    // a wrong key: nothing is rewritten, and the reseal says how many it could not open
    useKeys(randomBytes(32).toString('hex'));
    expect(await resealSecrets(ctx)).toEqual({ checked: 4, resealed: 0, unreadable: 4 });
    expect((await rows()).map((row) => row.secret)).toEqual(after.map((row) => row.secret));
  });

  it('does not sign with a sealed secret copied into another webhook row, and a reseal leaves it unreadable', async () => {
    useKeys(newKey);
    const account = await accountWith(ctx, { plan: 'scale' });
    const victim = await createWebhook(ctx, { accountId: account.accountId, request: { url: 'https://127.0.0.1:9/victim' } });
    const other = await createWebhook(ctx, { accountId: account.accountId, request: { url: 'https://127.0.0.1:9/other' } });
    const stolen = (await ctx.db.webhook.findUniqueOrThrow({ where: { id: victim.webhook.id } })).secret;
    await ctx.db.webhook.update({ where: { id: other.webhook.id }, data: { secret: stolen } });
    await expect(deliverySignatures(account.accountId, other.webhook.id)).rejects.toThrow(/opens with neither/);
    expect(await deliverySignatures(account.accountId, victim.webhook.id)).toBe(expected([victim.secret]));
    // the rows of the test before are sealed under this key too: only the copied value is unreadable
    expect(await resealSecrets(ctx)).toMatchObject({ resealed: 0, unreadable: 1 });
    expect((await ctx.db.webhook.findUniqueOrThrow({ where: { id: other.webhook.id } })).secret).toBe(stolen);
  });
});
