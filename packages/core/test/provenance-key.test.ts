// The key of a file's data hash: one per account, stored only sealed, and unchanged by a
// rotation of the secrets key (files rendered before stay verifiable).
import { createHmac, randomBytes } from 'node:crypto';
import { createServiceContext, resealSecrets, silentLogger } from '@svc/core';
import { createDb } from '@svc/db';
import { describe, expect, it } from 'vitest';
import { dataHash } from '../src/renders/render-spec.ts';
import { accountProvenanceKey, provenanceKeySetting } from '../src/settings/provenance-key.ts';
import { accountWith, useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;
const oldKey = randomBytes(32).toString('hex');
const newKey = randomBytes(32).toString('hex');

/** Another process on the same database: it reads the stored key afresh under its own secrets keys. */
async function otherProcess(key: string, previousKey?: string) {
  const db = createDb({ url: test.url(), poolSize: 1 });
  const other = createServiceContext({ db, clock: ctx.clock, logger: silentLogger, config: { ...ctx.config, secrets: { key, previousKey, keyFile: '/nonexistent/secrets.key' } } });
  return { ctx: other, close: () => db.$disconnect() };
}

describe('provenance key', () => {
  it('gives each account its own key, stores the service key only sealed, and keeps every key through a secrets key rotation', async () => {
    const before = await otherProcess(oldKey);
    const first = await accountWith(ctx, { plan: 'scale' });
    const second = await accountWith(ctx, { plan: 'scale' });
    const firstKey = await accountProvenanceKey(before.ctx, first.accountId);
    const secondKey = await accountProvenanceKey(before.ctx, second.accountId);
    expect(firstKey).toHaveLength(32);
    expect(firstKey.equals(secondKey)).toBe(false);
    expect((await accountProvenanceKey(before.ctx, first.accountId)).equals(firstKey)).toBe(true);
    // the data hash is the HMAC of the canonical data under the account's key, never its plain SHA-256
    expect(dataHash(firstKey, { b: 1, a: 'x' })).toBe(`hmac-sha256:${createHmac('sha256', firstKey).update('{"a":"x","b":1}').digest('hex')}`);
    expect(dataHash(firstKey, { a: 'x', b: 1 })).not.toBe(dataHash(secondKey, { a: 'x', b: 1 }));
    await before.close();

    const stored = await ctx.db.serviceSetting.findUniqueOrThrow({ where: { key: provenanceKeySetting } });
    expect(stored.value).toMatch(/^svc_sealed_v2\./);

    // rotation: the reseal moves the stored key to the new secrets key, and no account's key changes
    const rotating = await otherProcess(newKey, oldKey);
    expect((await accountProvenanceKey(rotating.ctx, first.accountId)).equals(firstKey)).toBe(true);
    expect(await resealSecrets(rotating.ctx)).toEqual({ checked: 1, resealed: 1, unreadable: 0 });
    await rotating.close();
    const after = await otherProcess(newKey);
    expect((await ctx.db.serviceSetting.findUniqueOrThrow({ where: { key: provenanceKeySetting } })).value).not.toBe(stored.value);
    expect((await accountProvenanceKey(after.ctx, first.accountId)).equals(firstKey)).toBe(true);
    expect((await accountProvenanceKey(after.ctx, second.accountId)).equals(secondKey)).toBe(true);
    await after.close();
  });
});
