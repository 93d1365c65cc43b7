// The secret that signs download and archive links, sign-in form tokens and CAPTCHA passes:
// whoever holds it can mint a link to any account's file. SVC_SIGNING_SECRET when set;
// otherwise one generated on first use and stored sealed in service_settings (as the provenance
// key is), so every web instance and restart agrees on it and a copy of the database (a dump,
// a backup, a replica) does not hold it.
import { randomBytes } from 'node:crypto';
import type { Db } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { openSecret, type SealedPlace, sealSecret, secretsKeys } from './sealed-secrets.ts';

export const signingSecretSetting = 'download_signing_secret';
export const signingSecretPlace: SealedPlace = { kind: 'link signing secret', rowId: signingSecretSetting };
/** Per database client: a process that talks to two databases (tests) never mixes their secrets. */
const cache = new WeakMap<Db, string>();

/** The secret, from the configuration or the stored setting (made on first use). */
export async function signingSecret(ctx: ServiceContext): Promise<string> {
  if (ctx.config.signingSecret) return ctx.config.signingSecret;
  const cached = cache.get(ctx.db);
  if (cached) return cached;
  const keys = secretsKeys(ctx.config.secrets);
  const fresh = sealSecret(keys, randomBytes(32).toString('hex'), signingSecretPlace);
  await ctx.db.serviceSetting.createMany({ data: [{ key: signingSecretSetting, value: fresh }], skipDuplicates: true });
  const { value } = await ctx.db.serviceSetting.findUniqueOrThrow({ where: { key: signingSecretSetting } });
  // a value stored plain before sealing still signs (the links already out stay valid) until the reseal at start seals it
  const secret = openSecret(keys, value, signingSecretPlace);
  cache.set(ctx.db, secret);
  return secret;
}
