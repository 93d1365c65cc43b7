// The shared security suite: every authenticated route runs it.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, suspend, type TestAccount } from './api.ts';

export interface SecurityTarget {
  method: string;
  /** Builds the path for an account; owned resources are created by `arrange`. */
  path: (owned: string) => string;
  /** Creates a resource the account owns and returns its id ('' for routes without one). */
  arrange?: (account: TestAccount) => Promise<string>;
  /** A syntactically valid id that exists nowhere. */
  missingId?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The code of the 404 for foreign, missing and malformed ids (default not_found). */
  notFoundCode?: string;
}

async function call(target: SecurityTarget, owned: string, key: string | null) {
  return api(target.path(owned), { method: target.method, key, body: target.body, headers: target.headers });
}

export function securitySuite(name: string, target: SecurityTarget) {
  describe(`${name}: security`, () => {
    it('answers 401 without a key', async () => {
      const account = await newAccount();
      const owned = (await target.arrange?.(account)) ?? '';
      expectError(await call(target, owned, null), 401, 'unauthorized');
    });

    it('answers 401 for a malformed, an unknown and a non-bearer key', async () => {
      const account = await newAccount();
      const owned = (await target.arrange?.(account)) ?? '';
      expectError(await call(target, owned, 'not-a-key'), 401, 'unauthorized');
      expectError(await call(target, owned, `svc_sk_v1_${randomBytes(32).toString('hex')}`), 401, 'unauthorized');
      const basic = await api(target.path(owned), {
        method: target.method,
        body: target.body,
        headers: { ...target.headers, authorization: `Basic ${account.apiKey}` },
      });
      expectError(basic, 401, 'unauthorized');
    });

    it('answers 401 for a revoked key', async () => {
      const account = await newAccount();
      const owned = (await target.arrange?.(account)) ?? '';
      const list = await api('/v1/keys?limit=100', { key: account.apiKey });
      const keyId = list.body.data.find((key: { display_prefix: string }) => account.apiKey.startsWith(key.display_prefix)).id;
      const second = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'second' } });
      expect((await api(`/v1/keys/${keyId}`, { method: 'DELETE', key: second.body.secret })).status).toBe(200);
      expectError(await call(target, owned, account.apiKey), 401, 'unauthorized');
    });

    it('answers 403 account_suspended for a suspended account', async () => {
      const account = await newAccount();
      const owned = (await target.arrange?.(account)) ?? '';
      await suspend(account.accountId);
      expectError(await call(target, owned, account.apiKey), 403, 'account_suspended');
    });

    if (target.arrange && target.missingId) {
      it("answers the same 404 for another account's id and for one that does not exist", async () => {
        const owner = await newAccount();
        const stranger = await newAccount();
        const owned = await target.arrange!(owner);
        const foreign = await call(target, owned, stranger.apiKey);
        const missing = await call(target, target.missingId!, stranger.apiKey);
        const malformed = await call(target, 'nonsense', stranger.apiKey);
        for (const response of [foreign, missing, malformed]) expectError(response, 404, target.notFoundCode ?? 'not_found');
        expect(foreign.body.error.message).toBe(missing.body.error.message);
      });
    }
  });
}
