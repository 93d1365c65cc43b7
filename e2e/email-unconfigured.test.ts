// A service started without SVC_SMTP_URL cannot deliver email: the routes that mail a link
// answer 503 auth_unavailable over HTTP, and reserve nothing (no link is created).
import { type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createServiceContext, createSignInLink, loadConfig, type ServiceContext, silentLogger } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAt, expectError } from './support/api.ts';
import { freePort, startProcess, stopProcess, waitFor } from './support/global-setup.ts';
import { openLink, sessionCookieFrom } from './support/sessions.ts';

let database: TestDatabase;
let ctx: ServiceContext;
let web: ChildProcess | undefined;
let base: string;

beforeAll(async () => {
  database = await createTestDatabase(inject('dbServerUrl'));
  ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig() });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-no-email-'));
  // an empty value is unset: email delivery is not configured
  web = startProcess('apps/web/src/server.ts', { DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_SMTP_URL: '' });
  await waitFor(`${base}/v1/openapi.json`, web);
});

afterAll(async () => {
  if (web) await stopProcess(web);
  await database?.drop();
});

describe('email delivery not configured', () => {
  it('answers 503 auth_unavailable to email sign-in and to adding an email identity, and creates no link', async () => {
    const { accountId } = await createAccount(ctx, { plan: 'free' });
    const opened = await openLink(new URL((await createSignInLink(ctx, { accountId })).url).pathname, undefined, { base });
    expect(opened.status).toBe(303);
    const cookie = sessionCookieFrom(opened);
    const me = await apiAt(base, '/v1/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    const links = await ctx.db.authLink.count();

    const identity = await apiAt(base, '/v1/me/identities/email', {
      method: 'POST',
      body: { email: 'owner@example.com' },
      headers: { cookie, 'x-csrf-token': me.body.csrf_token },
    });
    expectError(identity, 503, 'auth_unavailable');
    expectError(await apiAt(base, '/v1/auth/email/sign-in', { method: 'POST', body: { email: 'someone@example.com' } }), 503, 'auth_unavailable');
    expect(await ctx.db.authLink.count()).toBe(links);
  });
});
