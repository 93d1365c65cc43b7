// Sealing of secrets kept in the database: the key's forms, the generated key file, rotation
// with a previous key, plain and v1 values stored before binding, tampering, and values bound
// to their row.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isSealed,
  openSecret,
  parseKey,
  type SealedPlace,
  sealSecret,
  sealedPrefix,
  sealedWithCurrent,
  secretsKeys,
  webhookSecretPlace,
} from '../src/settings/sealed-secrets.ts';
import { sealV1 } from './sealed-v1.ts';

const secret = `svc_whsec_${'ab'.repeat(32)}`;
const place = webhookSecretPlace('wh_first');
const keyFile = async () => join(await mkdtemp(join(tmpdir(), 'svc-secrets-')), 'data', 'secrets.key');

describe('sealed secrets', () => {
  it('reads a key given as 64 hex characters or as base64, and refuses anything else', () => {
    const bytes = randomBytes(32);
    expect(parseKey(bytes.toString('hex'), 'K')).toEqual(bytes);
    expect(parseKey(bytes.toString('base64'), 'K')).toEqual(bytes);
    expect(parseKey(` ${bytes.toString('base64')}\n`, 'K')).toEqual(bytes);
    for (const bad of ['', 'short', randomBytes(16).toString('hex'), randomBytes(31).toString('base64'), `${bytes.toString('base64')}!!`]) {
      expect(() => parseKey(bad, 'SVC_SECRETS_KEY')).toThrow(/SVC_SECRETS_KEY must be 32 bytes/);
    }
  });

  it('seals with AES-256-GCM under the current key: never the plain value, a fresh nonce each time', () => {
    const keys = secretsKeys({ key: randomBytes(32).toString('base64'), keyFile: '/nonexistent/secrets.key' });
    const sealed = sealSecret(keys, secret, place);
    expect(sealed.startsWith(sealedPrefix)).toBe(true);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(secret.slice(10));
    expect(Buffer.from(sealed.slice(sealedPrefix.length), 'base64').toString('latin1')).not.toContain(secret.slice(10));
    expect(sealSecret(keys, secret, place)).not.toBe(sealed);
    expect(openSecret(keys, sealed, place)).toBe(secret);
    expect(sealedWithCurrent(keys, sealed, place)).toBe(true);
  });

  it('opens values of the previous key during a rotation, and nothing under an unknown key', () => {
    const oldKey = randomBytes(32).toString('hex');
    const newKey = randomBytes(32).toString('hex');
    const before = sealSecret(secretsKeys({ key: oldKey, keyFile: '/nonexistent/a' }), secret, place);
    const rotating = secretsKeys({ key: newKey, previousKey: oldKey, keyFile: '/nonexistent/b' });
    expect(openSecret(rotating, before, place)).toBe(secret);
    expect(sealedWithCurrent(rotating, before, place)).toBe(false);
    expect(sealedWithCurrent(rotating, sealSecret(rotating, secret, place), place)).toBe(true);
    const lost = secretsKeys({ key: newKey, keyFile: '/nonexistent/c' });
    expect(() => openSecret(lost, before, place)).toThrow(/opens with neither/);
  });

  it('refuses a sealed value changed by one bit', () => {
    const keys = secretsKeys({ key: randomBytes(32).toString('hex'), keyFile: '/nonexistent/d' });
    const raw = Buffer.from(sealSecret(keys, secret, place).slice(sealedPrefix.length), 'base64');
    raw[14]! ^= 1;
    expect(() => openSecret(keys, sealedPrefix + raw.toString('base64'), place)).toThrow();
  });

  it('binds a value to its row and kind: copied to another row, or read as another kind, it does not open', () => {
    const keys = secretsKeys({ key: randomBytes(32).toString('hex'), keyFile: '/nonexistent/f' });
    const sealed = sealSecret(keys, secret, place);
    expect(sealed.startsWith('svc_sealed_v2.')).toBe(true);
    expect(openSecret(keys, sealed, webhookSecretPlace('wh_first'))).toBe(secret);
    expect(() => openSecret(keys, sealed, webhookSecretPlace('wh_second'))).toThrow(/opens with neither/);
    const otherKind: SealedPlace = { kind: 'provenance key', rowId: 'wh_first' };
    expect(() => openSecret(keys, sealed, otherKind)).toThrow(/opens with neither/);
    expect(sealedWithCurrent(keys, sealed, webhookSecretPlace('wh_second'))).toBe(false);
  });

  it('opens a v1 webhook secret sealed before row binding, which a reseal rewrites; no other kind accepts v1 or plain values', () => {
    const key = randomBytes(32);
    const keys = secretsKeys({ key: key.toString('hex'), keyFile: '/nonexistent/g' });
    const v1 = sealV1(key, secret);
    expect(isSealed(v1)).toBe(true);
    expect(openSecret(keys, v1, place)).toBe(secret);
    expect(sealedWithCurrent(keys, v1, place)).toBe(false);
    const provenance: SealedPlace = { kind: 'provenance key', rowId: 'provenance_key' };
    expect(() => openSecret(keys, v1, provenance)).toThrow(/not sealed/);
    expect(() => openSecret(keys, secret, provenance)).toThrow(/not sealed/);
  });

  it('answers a plain value stored before sealing as it is, until a reseal seals it', () => {
    const keys = secretsKeys({ key: randomBytes(32).toString('hex'), keyFile: '/nonexistent/e' });
    expect(isSealed(secret)).toBe(false);
    expect(openSecret(keys, secret, place)).toBe(secret);
    expect(sealedWithCurrent(keys, secret, place)).toBe(false);
  });

  it('without SVC_SECRETS_KEY, generates a key file of mode 0600 once and reuses it', async () => {
    const path = await keyFile();
    const keys = secretsKeys({ keyFile: path });
    const file = await stat(path);
    expect(file.mode & 0o777).toBe(0o600);
    expect(parseKey(await readFile(path, 'utf8'), path)).toEqual(keys.current);
    // another process (a settings object of its own) reads the same key
    const again = secretsKeys({ keyFile: path });
    expect(again.current).toEqual(keys.current);
    expect(openSecret(again, sealSecret(keys, secret, place), place)).toBe(secret);
  });
});
