// The secret that signs download and archive links: generated once and stored only sealed, so a
// copy of the database cannot mint a link to anyone's file; a value stored plain before sealing
// keeps signing (links already out stay valid) until the reseal seals it, unchanged.
import { randomBytes } from 'node:crypto';
import { createServiceContext, resealSecrets, silentLogger } from '@svc/core';
import { createDb } from '@svc/db';
import { describe, expect, it } from 'vitest';
import { signingSecret, signingSecretSetting } from '../src/settings/signing-secret.ts';
import { useTestContext } from './support.ts';

const test = useTestContext();
const { ctx } = test;
const key = randomBytes(32).toString('hex');

/** A new process on the same database, with no SVC_SIGNING_SECRET: it reads the stored secret afresh. */
async function process() {
  const db = createDb({ url: test.url(), poolSize: 1 });
  const own = createServiceContext({ db, clock: ctx.clock, logger: silentLogger, config: { ...ctx.config, signingSecret: undefined, secrets: { key, keyFile: '/nonexistent/secrets.key' } } });
  return { ctx: own, close: () => db.$disconnect() };
}
const stored = async () => (await ctx.db.serviceSetting.findUniqueOrThrow({ where: { key: signingSecretSetting } })).value;

describe('link signing secret', () => {
  it('is stored sealed, the same for every process, and a plain one from before sealing is sealed by the reseal without changing', async () => {
    const first = await process();
    const secret = await signingSecret(first.ctx);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await first.close();
    expect(await stored()).toMatch(/^svc_sealed_v2\./);
    expect(await stored()).not.toContain(secret);
    const second = await process();
    expect(await signingSecret(second.ctx)).toBe(secret);
    await second.close();

    // a database from before sealing holds the secret plain: it still signs, and the reseal seals it
    const plain = randomBytes(32).toString('hex');
    await ctx.db.serviceSetting.update({ where: { key: signingSecretSetting }, data: { value: plain } });
    const before = await process();
    expect(await signingSecret(before.ctx)).toBe(plain);
    expect(await resealSecrets(before.ctx)).toEqual({ checked: 1, resealed: 1, unreadable: 0 });
    await before.close();
    expect(await stored()).toMatch(/^svc_sealed_v2\./);
    const after = await process();
    expect(await signingSecret(after.ctx)).toBe(plain);
    await after.close();
  });
});
