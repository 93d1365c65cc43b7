// The key of a file's data hash (provenance): the hash is an HMAC, so a file does not let whoever
// holds it confirm guesses about data the document never shows. Each account's key is derived
// from one random service key kept sealed in service_settings rather than from SVC_SECRETS_KEY
// itself: rotating the secrets key reseals it and changes no account's key, so files rendered
// before a rotation stay verifiable.
import { hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { openSecret, type SealedPlace, sealSecret, secretsKeys } from './sealed-secrets.ts';

export const provenanceKeySetting = 'provenance_key';
export const provenanceKeyPlace: SealedPlace = { kind: 'provenance key', rowId: provenanceKeySetting };
/** Per database client: a process that talks to two databases (tests) never mixes their keys. */
const cache = new WeakMap<Db, Buffer>();

/** The service's provenance key: generated on first use and stored sealed, so every process and restart agrees on it. */
async function serviceProvenanceKey(ctx: ServiceContext): Promise<Buffer> {
  const cached = cache.get(ctx.db);
  if (cached) return cached;
  const keys = secretsKeys(ctx.config.secrets);
  const fresh = sealSecret(keys, randomBytes(32).toString('base64'), provenanceKeyPlace);
  await ctx.db.serviceSetting.createMany({ data: [{ key: provenanceKeySetting, value: fresh }], skipDuplicates: true });
  const { value } = await ctx.db.serviceSetting.findUniqueOrThrow({ where: { key: provenanceKeySetting } });
  const key = Buffer.from(openSecret(keys, value, provenanceKeyPlace), 'base64');
  cache.set(ctx.db, key);
  return key;
}

/**
 * An account's provenance key (32 bytes): HKDF-SHA-256 of the service key with the account's id
 * as its info, so no account's key tells anything of another's. GET /v1/me shows it to the
 * account, which verifies its files' data hashes with it (docs/document-features.md).
 */
export async function accountProvenanceKey(ctx: ServiceContext, accountId: string): Promise<Buffer> {
  return Buffer.from(hkdfSync('sha256', await serviceProvenanceKey(ctx), Buffer.alloc(0), `svc provenance data hash\0${accountId}`, 32));
}
