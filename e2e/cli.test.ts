import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isSealed, openSecret, secretsKeys, webhookSecretPlace } from '../packages/core/src/settings/sealed-secrets.ts';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
import { svc } from './support/cli.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = join(root, '.data/test-files');

// the data directory of the service under test, so the CLI holds the key it seals with
const svcOf = (...args: string[]) => svc(args, { env: { SVC_DATA_DIR: dataDir } });

describe('operator CLI', () => {
  it('creates an account printing exactly one JSON object with a working key', async () => {
    const created = await svc(['account', 'create', '--plan', 'scale', '--credits', '1000', '--json'], { env: { SVC_DATA_DIR: dataDir }, viaNpm: true });
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0]!);
    expect(Object.keys(parsed).sort()).toEqual(['account_id', 'api_key']);
    expect(parsed.api_key).toMatch(/^svc_sk_v1_[0-9a-f]{64}$/);
    expect((await api('/v1/keys', { key: parsed.api_key })).status).toBe(200);

    const shown = JSON.parse((await svcOf('account', 'show', parsed.account_id, '--json')).stdout);
    expect(shown).toMatchObject({ account_id: parsed.account_id, plan: 'scale', status: 'active' });
    expect(shown.balances).toEqual({ free_monthly: 0, trial: 1000, pack: 0, subscription: 0 });

    expect((await svcOf('credits', 'grant', parsed.account_id, '25', '--bucket', 'pack')).code).toBe(0);
    expect(JSON.parse((await svcOf('account', 'show', parsed.account_id, '--json')).stdout).balances.pack).toBe(25);

    expect((await svcOf('account', 'suspend', parsed.account_id)).code).toBe(0);
    expectError(await api('/v1/keys', { key: parsed.api_key }), 403, 'account_suspended');
    expect((await svcOf('account', 'unsuspend', parsed.account_id)).code).toBe(0);
    expect((await api('/v1/keys', { key: parsed.api_key })).status).toBe(200);
  }, 300_000);

  it('refuses bad input with a usage message and nothing on stdout', async () => {
    for (const args of [
      ['account', 'create', '--plan', 'platinum', '--json'],
      ['credits', 'grant', 'acct_x', '-5', '--bucket', 'pack'],
      ['credits', 'grant', 'acct_x', '5', '--bucket', 'gold'],
      ['account', 'plan', 'acct_x', '--plan', 'gold'],
      ['account', 'fly'],
    ]) {
      const result = await svcOf(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('usage');
    }
    const unknown = await svcOf('account', 'show', `acct_${'0'.repeat(32)}`, '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
  }, 300_000);

  it('secrets reseal: seals webhook secrets stored in plain before sealing, and changes nothing the second time', async () => {
    const account = await newAccount();
    const created = await api('/v1/webhooks', { method: 'POST', key: account.apiKey, body: { url: 'https://93.184.215.14/hook' } });
    expect(created.status).toBe(201);
    // a row as an earlier version stored it
    await serviceDb().webhook.update({ where: { id: created.body.id }, data: { secret: created.body.secret } });

    const first = await svcOf('secrets', 'reseal', '--json');
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout.trim().split('\n').at(-1)!);
    expect(result.resealed).toBeGreaterThanOrEqual(1);
    expect(result.unreadable).toBe(0);
    const row = await serviceDb().webhook.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(isSealed(row.secret)).toBe(true);
    expect(row.secret).not.toContain(created.body.secret.slice(10));
    // sealed under the key of the service's data directory (generated there, mode 0600)
    const keys = secretsKeys({ key: readFileSync(join(dataDir, 'secrets.key'), 'utf8'), keyFile: join(dataDir, 'secrets.key') });
    expect(openSecret(keys, row.secret, webhookSecretPlace(row.id))).toBe(created.body.secret);

    const again = JSON.parse((await svcOf('secrets', 'reseal', '--json')).stdout.trim().split('\n').at(-1)!);
    expect(again.resealed).toBe(0);
    expect((await serviceDb().webhook.findUniqueOrThrow({ where: { id: created.body.id } })).secret).toBe(row.secret);
    expect((await api(`/v1/webhooks/${created.body.id}`, { key: account.apiKey })).status).toBe(200);
  }, 180_000);
});
