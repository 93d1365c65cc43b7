import { randomBytes } from 'node:crypto';
import type { Db } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';

const settingKey = 'download_signing_secret';
/** Per database client: a process that talks to two databases (tests) never mixes their secrets. */
const cache = new WeakMap<Db, string>();

/**
 * The secret that signs download links: SVC_SIGNING_SECRET when set, otherwise one
 * generated on first use and stored, so every web instance and restart agrees on it.
 */
export async function signingSecret(ctx: ServiceContext): Promise<string> {
  if (ctx.config.signingSecret) return ctx.config.signingSecret;
  const cached = cache.get(ctx.db);
  if (cached) return cached;
  await ctx.db.serviceSetting.createMany({ data: [{ key: settingKey, value: randomBytes(32).toString('hex') }], skipDuplicates: true });
  const { value } = await ctx.db.serviceSetting.findUniqueOrThrow({ where: { key: settingKey } });
  cache.set(ctx.db, value);
  return value;
}
