// Secrets the service must read back in full (webhook signing secrets, the provenance key) are kept in the database
// sealed with AES-256-GCM under a key held outside it, so a copy of the database alone (a
// backup, a replica, a read through SQL) yields none of them. docs/security.md tells
// the operator how to set and rotate the key.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ServiceConfig } from '../shared/config.ts';

/**
 * A sealed value: the scheme, then base64 of nonce (12 bytes), ciphertext and tag (16 bytes).
 * v2 binds the value to its kind and to the row that holds it (the associated data), so a
 * value copied into another row, or into a column of another kind, does not open there.
 */
export const sealedPrefix = 'svc_sealed_v2.';
/** Webhook signing secrets sealed before values were bound to their row: open until a reseal rewrites them as v2. */
export const legacySealedPrefix = 'svc_sealed_v1.';
const nonceBytes = 12;
const tagBytes = 16;

/** The kinds of sealed secret, each named in the associated data of its values. */
export type SealedKind = 'webhook signing secret' | 'provenance key';

/**
 * Where a sealed value belongs: its kind and the id of its row (a webhook's id; a service
 * setting's key). A webhook's current and previous secret share one place: a rotation moves
 * the current one into the previous column as it is, and both are that webhook's own secrets.
 */
export interface SealedPlace {
  kind: SealedKind;
  rowId: string;
}

/** The place of a webhook's signing secrets. */
export const webhookSecretPlace = (webhookId: string): SealedPlace => ({ kind: 'webhook signing secret', rowId: webhookId });

// NUL cannot occur in a kind or an id, so no two places share associated data
const associatedData = (place: SealedPlace) => Buffer.from(`${sealedPrefix}\0${place.kind}\0${place.rowId}`);
/** v1 named only the kind: it was used for webhook signing secrets alone. */
const legacyAssociatedData = Buffer.from('svc webhook signing secret');

export interface SecretsKeys {
  /** Seals every new value, and opens them. */
  current: Buffer;
  /** Opens values sealed before a rotation, until `svc secrets reseal` has moved them to the current key. */
  previous: Buffer | null;
}

/** Keys per settings object: a process reads its key file once. */
const cache = new WeakMap<ServiceConfig['secrets'], SecretsKeys>();

/**
 * The keys: SVC_SECRETS_KEY when set (32 bytes as base64 or hex), otherwise a key generated on
 * first use into SVC_DATA_DIR/secrets.key (mode 0600; created exclusively, so processes that
 * start together agree on one); SVC_SECRETS_KEY_PREVIOUS, when set, still opens older values.
 */
export function secretsKeys(settings: ServiceConfig['secrets']): SecretsKeys {
  const cached = cache.get(settings);
  if (cached) return cached;
  const keys = {
    current: settings.key ? parseKey(settings.key, 'SVC_SECRETS_KEY') : keyFromFile(settings.keyFile),
    previous: settings.previousKey ? parseKey(settings.previousKey, 'SVC_SECRETS_KEY_PREVIOUS') : null,
  };
  cache.set(settings, keys);
  return keys;
}

/** 32 bytes written as 64 hex characters or as base64. */
export function parseKey(text: string, name: string): Buffer {
  const value = text.trim();
  const hex = /^[0-9a-fA-F]{64}$/.test(value);
  const bytes = Buffer.from(value, hex ? 'hex' : 'base64');
  // Buffer.from skips what is not base64: a value must decode whole
  const whole = hex || bytes.toString('base64').replace(/=+$/, '') === value.replace(/=+$/, '');
  if (bytes.length !== 32 || !whole) {
    throw new Error(`${name} must be 32 bytes, written as 64 hex characters or as base64`);
  }
  return bytes;
}

function keyFromFile(path: string): Buffer {
  try {
    return parseKey(readFileSync(path, 'utf8'), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // another process made it first: its key is the one
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseKey(readFileSync(path, 'utf8'), path);
}

export function isSealed(value: string): boolean {
  return value.startsWith(sealedPrefix) || value.startsWith(legacySealedPrefix);
}

/** Seals a secret under the current key for its place (a fresh nonce each time). */
export function sealSecret(keys: SecretsKeys, secret: string, place: SealedPlace): string {
  const nonce = randomBytes(nonceBytes);
  const cipher = createCipheriv('aes-256-gcm', keys.current, nonce);
  cipher.setAAD(associatedData(place));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return sealedPrefix + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

/**
 * The secret of a stored value in its place: opened with the current key, else the previous
 * one. Webhook signing secrets stored before sealing (plain) or before binding (v1) are
 * answered too, until a reseal rewrites them; no other kind ever had such values. A value
 * that opens with neither key, or not in this place, throws: a lost or wrong key, or a value
 * moved from another row.
 */
export function openSecret(keys: SecretsKeys, stored: string, place: SealedPlace): string {
  const legacy = place.kind === 'webhook signing secret';
  if (!isSealed(stored) && legacy) return stored;
  const v2 = stored.startsWith(sealedPrefix);
  if (!v2 && !(legacy && stored.startsWith(legacySealedPrefix))) throw new Error(`a stored ${place.kind} is not sealed`);
  const raw = Buffer.from(stored.slice(stored.indexOf('.') + 1), 'base64');
  const aad = v2 ? associatedData(place) : legacyAssociatedData;
  const opened = [keys.current, keys.previous].flatMap((key) => {
    if (!key || raw.length < nonceBytes + tagBytes) return [];
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, nonceBytes));
      decipher.setAAD(aad);
      decipher.setAuthTag(raw.subarray(raw.length - tagBytes));
      return [Buffer.concat([decipher.update(raw.subarray(nonceBytes, raw.length - tagBytes)), decipher.final()]).toString('utf8')];
    } catch {
      return [];
    }
  });
  if (opened.length === 0) throw new Error(`a sealed ${place.kind} opens with neither SVC_SECRETS_KEY nor SVC_SECRETS_KEY_PREVIOUS in its row`);
  return opened[0]!;
}

/** Whether a stored value is already sealed as v2 under the current key for its place (a reseal leaves it alone). */
export function sealedWithCurrent(keys: SecretsKeys, stored: string, place: SealedPlace): boolean {
  if (!stored.startsWith(sealedPrefix)) return false;
  try {
    openSecret({ current: keys.current, previous: null }, stored, place);
    return true;
  } catch {
    return false;
  }
}
