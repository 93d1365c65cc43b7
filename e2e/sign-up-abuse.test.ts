// Free accounts and sign-in mail cannot be farmed: one free account per mailbox (case, +tags
// and Gmail's dots are one mailbox), per-client limits that count an IPv6 client by its /64,
// at most ten sign-in mails per mailbox a day and three new accounts per client a day. A
// service of the file's own, behind one trusted proxy, so each test names its client in
// X-Forwarded-For and the shared service's buckets are left alone.
import { type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAt, expectError } from './support/api.ts';
import { freePort, startProcess, stopProcess, waitFor } from './support/global-setup.ts';
import { openLink, sessionCookieFrom } from './support/sessions.ts';
import { mailsTo, nextMailTo, startSmtpServer, type TestSmtpServer } from './support/smtp.ts';

let database: TestDatabase;
let smtp: TestSmtpServer;
let mailDir: string;
let web: ChildProcess | undefined;
let base: string;

beforeAll(async () => {
  database = await createTestDatabase(inject('dbServerUrl'));
  mailDir = await mkdtemp(join(tmpdir(), 'svc-abuse-mail-'));
  smtp = await startSmtpServer(mailDir);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-abuse-'));
  web = startProcess('apps/web/src/server.ts', {
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_PUBLIC_URL: base,
    SVC_DATA_DIR: dataDir,
    SVC_SMTP_URL: smtp.url,
    SVC_EMAIL_FROM: 'Rendering Service <no-reply@svc.test>',
    SVC_TRUSTED_PROXY_HOPS: '1',
  });
  await waitFor(`${base}/v1/openapi.json`, web);
});

afterAll(async () => {
  if (web) await stopProcess(web);
  await smtp?.close();
  await database?.drop();
});

const from = (client: string) => ({ 'x-forwarded-for': client });
const linkIn = (text: string) => /(http\S+)/.exec(text)?.[1];
const askForLink = (email: string, client: string) => apiAt(base, '/v1/auth/email/sign-in', { method: 'POST', body: { email }, headers: from(client) });
/** A client of its own per test: an IPv6 /64 no other test uses. */
const newClient = () => `2001:db8:${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;

async function signUp(email: string, client: string): Promise<Response> {
  expect((await askForLink(email, client)).status).toBe(202);
  const link = linkIn((await nextMailTo(mailDir, email)).text);
  expect(link).toBeDefined();
  return openLink(new URL(link!).pathname, undefined, { base, headers: from(client) });
}

describe('one free account per mailbox', () => {
  it('another spelling of a Gmail address (+tag, dots, case, googlemail.com) gets no second account or credits', async () => {
    const client = `${newClient()}::1`;
    const name = `farm${randomUUID().slice(0, 8)}`;
    const first = await signUp(`${name}@gmail.com`, client);
    expect(first.status).toBe(303);
    const me = await apiAt(base, '/v1/me', { headers: { cookie: sessionCookieFrom(first) } });
    expect(me.body.balances.free_monthly).toBe(50);

    for (const variant of [`${name}+two@gmail.com`, `${name.slice(0, 2)}.${name.slice(2)}@googlemail.com`, `${name.toUpperCase()}+x@GMAIL.com`]) {
      // the same answer as for any address, and a mail that carries no link (past the minute's allowance for the mailbox)
      await database.db.$executeRaw`DELETE FROM rate_limit_buckets WHERE key LIKE 'email_sign_in_address:%'`;
      expect((await askForLink(variant, client)).status).toBe(202);
      const mail = await nextMailTo(mailDir, variant);
      expect(linkIn(mail.text)).toBeUndefined();
      expect(mail.text).toContain('already has an account');
    }
    const accounts = await database.db.account.findMany({ where: { emailMailbox: `${name}@gmail.com` } });
    expect(accounts.map((account) => account.id)).toEqual([me.body.id]);
    expect(await database.db.account.count({ where: { email: { contains: name } } })).toBe(1);
  });

  it('a link for another spelling made before the first account opened signs nobody in and opens nothing', async () => {
    const client = `${newClient()}::1`;
    const name = `race-${randomUUID().slice(0, 8)}`;
    expect((await askForLink(`${name}@example.com`, client)).status).toBe(202);
    expect((await askForLink(`${name}+b@example.com`, client)).status).toBe(202);
    const first = linkIn((await nextMailTo(mailDir, `${name}@example.com`)).text)!;
    const second = linkIn((await nextMailTo(mailDir, `${name}+b@example.com`)).text)!;
    expect((await openLink(new URL(first).pathname, undefined, { base, headers: from(client) })).status).toBe(303);
    const refused = await openLink(new URL(second).pathname, undefined, { base, headers: from(client) });
    expect(refused.status).toBe(410);
    expect(refused.headers.get('set-cookie') ?? '').not.toContain('__Host-svc_session');
    expect(await database.db.account.count({ where: { email: { startsWith: name } } })).toBe(1);
  });
});

describe('per-client limits count an IPv6 client by its /64', () => {
  it('twenty link requests from addresses of one /64 use up its allowance; another /64 is another client', async () => {
    const network = newClient();
    for (let i = 1; i <= 20; i++) {
      const answer = await askForLink(`v6-${randomUUID()}@example.com`, `${network}::${i.toString(16)}`);
      expect(answer.status).toBe(202);
    }
    const limited = await askForLink(`v6-${randomUUID()}@example.com`, `${network}:ffff:ffff:ffff:ffff`);
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await askForLink(`v6-${randomUUID()}@example.com`, `${newClient()}::1`)).status).toBe(202);
  });
});

describe('sign-in mail per mailbox', () => {
  it('sends at most ten sign-in mails a day to one mailbox, however it is spelled', async () => {
    const name = `bomb-${randomUUID().slice(0, 8)}`;
    const client = () => `${newClient()}::1`;
    for (let i = 0; i < 10; i++) {
      // past the minute's allowance: only the daily cap is left to test
      await database.db.$executeRaw`DELETE FROM rate_limit_buckets WHERE key LIKE 'email_sign_in_address:%'`;
      expect((await askForLink(`${name}+${i}@example.com`, client())).status).toBe(202);
    }
    await database.db.$executeRaw`DELETE FROM rate_limit_buckets WHERE key LIKE 'email_sign_in_address:%'`;
    const limited = await askForLink(`${name}@example.com`, client());
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await database.db.$executeRaw`DELETE FROM rate_limit_buckets WHERE key LIKE 'email_sign_in_address:%'`;
    expectError(await askForLink(`${name}+11@EXAMPLE.com`, client()), 429, 'rate_limited');
    await nextMailTo(mailDir, `${name}+9@example.com`);
    let sent = 0;
    for (const to of [...Array.from({ length: 12 }, (_, i) => `${name}+${i}@example.com`), `${name}@example.com`]) sent += (await mailsTo(mailDir, to)).length;
    expect(sent).toBe(10);
    // another mailbox is not affected
    expect((await askForLink(`other-${name}@example.com`, client())).status).toBe(202);
  });
});

describe('new accounts per client', () => {
  it('opens three new accounts a day from one client, then answers 403 abuse_limited and leaves the link usable', async () => {
    const network = newClient();
    for (let i = 1; i <= 3; i++) {
      const opened = await signUp(`new-${randomUUID()}@example.com`, `${network}::${i}`);
      expect(opened.status).toBe(303);
    }
    const email = `new-${randomUUID()}@example.com`;
    expect((await askForLink(email, `${network}::4`)).status).toBe(202);
    const link = new URL(linkIn((await nextMailTo(mailDir, email)).text)!).pathname;
    const refused = await openLink(link, undefined, { base, headers: from(`${network}::5`) });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect((await refused.json()).error.code).toBe('abuse_limited');
    expect(await database.db.account.count({ where: { email } })).toBe(0);
    // signing in to an account that exists is not a new account
    const again = await signUp(`new-${randomUUID()}@example.com`, `${newClient()}::1`);
    const existing = (await apiAt(base, '/v1/me', { headers: { cookie: sessionCookieFrom(again) } })).body.email as string;
    expect((await askForLink(existing, `${network}::6`)).status).toBe(202);
    const relink = new URL(linkIn((await nextMailTo(mailDir, existing, 2)).text)!).pathname;
    expect((await openLink(relink, undefined, { base, headers: from(`${network}::6`) })).status).toBe(303);
    // the refused link works from another client
    const elsewhere = await openLink(link, undefined, { base, headers: from(`${newClient()}::1`) });
    expect(elsewhere.status).toBe(303);
    expect(await database.db.account.count({ where: { email } })).toBe(1);
  });
});
