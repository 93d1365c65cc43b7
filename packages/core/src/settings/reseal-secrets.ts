import type { ServiceContext } from '../shared/context.ts';
import { provenanceKeyPlace, provenanceKeySetting } from './provenance-key.ts';
import { openSecret, type SealedPlace, sealSecret, sealedWithCurrent, secretsKeys, webhookSecretPlace } from './sealed-secrets.ts';

export interface ResealSecretsResult {
  /** Stored secrets looked at (a webhook's current and previous secret count once each, and the provenance key). */
  checked: number;
  /** Of them, those rewritten: plain values, values sealed before they were bound to their row (v1), and values sealed under the previous key. */
  resealed: number;
  /** Sealed values neither key opens (a lost or wrong key): left as they are and logged. */
  unreadable: number;
}

/** Rows read per query. */
const pageSize = 500;

/**
 * Seals every stored secret (webhook signing secrets, the service's provenance key) under the
 * current key, bound to its row (`svc secrets reseal`, and at each `npm start`): webhook
 * secrets stored plain before sealing existed or sealed as v1 before binding, and values sealed
 * under SVC_SECRETS_KEY_PREVIOUS after a rotation, after which the previous key can be dropped. Each
 * row is rewritten only if it still holds what was read, so a rotation racing the reseal is
 * never undone. A value neither key opens is left as it is and counted. Running it again
 * changes nothing.
 */
export async function resealSecrets(ctx: ServiceContext): Promise<ResealSecretsResult> {
  const keys = secretsKeys(ctx.config.secrets);
  let unreadable = 0;
  const reseal = (stored: string, place: SealedPlace) => {
    if (sealedWithCurrent(keys, stored, place)) return stored;
    try {
      return sealSecret(keys, openSecret(keys, stored, place), place);
    } catch {
      unreadable += 1;
      return stored;
    }
  };
  let checked = 0;
  let resealed = 0;
  let after = '';
  for (;;) {
    const rows = await ctx.db.webhook.findMany({
      where: { id: { gt: after } },
      orderBy: { id: 'asc' },
      take: pageSize,
      select: { id: true, secret: true, previousSecret: true },
    });
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    for (const row of rows) {
      const place = webhookSecretPlace(row.id);
      const secret = reseal(row.secret, place);
      const previousSecret = row.previousSecret === null ? null : reseal(row.previousSecret, place);
      checked += row.previousSecret === null ? 1 : 2;
      if (secret === row.secret && previousSecret === row.previousSecret) continue;
      const updated = await ctx.db.webhook.updateMany({
        where: { id: row.id, secret: row.secret, previousSecret: row.previousSecret },
        data: { secret, previousSecret },
      });
      if (updated.count > 0) resealed += Number(secret !== row.secret) + Number(previousSecret !== row.previousSecret);
    }
  }
  const setting = await ctx.db.serviceSetting.findUnique({ where: { key: provenanceKeySetting } });
  if (setting) {
    checked += 1;
    const value = reseal(setting.value, provenanceKeyPlace);
    if (value !== setting.value) {
      resealed += (await ctx.db.serviceSetting.updateMany({ where: { key: setting.key, value: setting.value }, data: { value } })).count;
    }
  }
  if (unreadable > 0) ctx.logger.warn('stored secrets open with neither SVC_SECRETS_KEY nor SVC_SECRETS_KEY_PREVIOUS', { unreadable });
  return { checked, resealed, unreadable };
}
