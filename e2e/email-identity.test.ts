import { randomBytes } from 'node:crypto';
import { requestEmailIdentity, requestEmailSignIn } from '@svc/core';
import { describe, expect, inject, it } from 'vitest';
import { api, expectError, newAccount, serviceContext, serviceDb } from './support/api.ts';
import { openLink, sessionCookieFrom, sessionHeaders, signIn, type TestSession } from './support/sessions.ts';
import { mailsTo, nextMailTo } from './support/smtp.ts';

const mailDir = () => inject('mailDir');
const address = () => `user-${randomBytes(6).toString('hex')}@example.com`;
const linkIn = (text: string) => /(http\S+)/.exec(text)?.[1] as string;

async function requestIdentity(session: TestSession, body: unknown, csrf?: string | null) {
  return api('/v1/me/identities/email', { method: 'POST', body, headers: sessionHeaders(session, csrf === undefined ? session.csrfToken : csrf) });
}

async function confirm(session: TestSession, token: string) {
  return api('/v1/auth/email/confirm', { method: 'POST', body: { token }, headers: sessionHeaders(session) });
}

describe('POST /v1/auth/email/sign-in', () => {
  it('answers the same 202 for a new and a known address; a new address gets a free account on first use', async () => {
    const email = address();
    const first = await api('/v1/auth/email/sign-in', { method: 'POST', body: { email } });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({});
    const mail = await nextMailTo(mailDir(), email);
    const link = linkIn(mail.text);
    expect(link).toMatch(/\/auth\/sign-in\/svc_link_[0-9a-f]{64}$/);
    const opened = await openLink(new URL(link).pathname);
    expect(opened.status).toBe(303);
    const me = await api('/v1/me', { headers: { cookie: sessionCookieFrom(opened) } });
    expect(me.body).toMatchObject({ plan: 'free', status: 'active', email, balances: { free_monthly: 50, trial: 0 } });

    // now the address has an account: the same answer, and the link signs into that account
    const again = await api('/v1/auth/email/sign-in', { method: 'POST', body: { email: email.toUpperCase() } });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    const second = await nextMailTo(mailDir(), email, 2);
    const reopened = await openLink(new URL(linkIn(second.text)).pathname);
    const meAgain = await api('/v1/me', { headers: { cookie: sessionCookieFrom(reopened) } });
    expect(meAgain.body.id).toBe(me.body.id);
    expect(meAgain.body.balances.free_monthly).toBe(50);
  });

  it('answers 422 invalid_email, 400 for a bad body, and 429 with Retry-After past the per-address limit', async () => {
    expectError(await api('/v1/auth/email/sign-in', { method: 'POST', body: { email: 'not-an-address' } }), 422, 'invalid_email');
    expectError(await api('/v1/auth/email/sign-in', { method: 'POST', body: { email: 'a@b.c\r\nBcc: x@y.z' } }), 422, 'invalid_email');
    expectError(await api('/v1/auth/email/sign-in', { method: 'POST', body: { email: address(), extra: 1 } }), 400, 'invalid_request');
    const email = address();
    for (let i = 0; i < 3; i++) expect((await api('/v1/auth/email/sign-in', { method: 'POST', body: { email } })).status).toBe(202);
    const limited = await api('/v1/auth/email/sign-in', { method: 'POST', body: { email } });
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('POST /v1/me/identities/email and POST /v1/auth/email/confirm', () => {
  it('mails a link bound to the exact session; confirming proves the address and grants free monthly credits once', async () => {
    const account = await newAccount({ plan: 'free', credits: 0 });
    const session = await signIn(account.accountId);
    const other = await signIn(account.accountId);
    const email = address();
    const accepted = await requestIdentity(session, { email, next: '/settings?tab=email' });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({});
    const mail = await nextMailTo(mailDir(), email);
    const link = linkIn(mail.text);
    expect(link).toMatch(/\/auth\/confirm-email#token=svc_link_[0-9a-f]{64}$/);
    const token = new URL(link).hash.replace('#token=', '');

    // another session of the same account cannot use it, and does not use it up
    expectError(await confirm(other, token), 400, 'invalid_link');
    expectError(await api('/v1/auth/email/confirm', { method: 'POST', body: { token }, headers: sessionHeaders(session, null) }), 403, 'csrf_rejected');
    const confirmed = await confirm(session, token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ email, credits_granted: 50, next: '/settings?tab=email' });
    const me = await api('/v1/me', { headers: { cookie: session.cookie } });
    expect(me.body.email).toBe(email);
    expect(me.body.balances.free_monthly).toBe(50);

    expectError(await confirm(session, token), 400, 'invalid_link');
    expectError(await requestIdentity(session, { email: address() }), 409, 'email_already_set');
    const after = await api('/v1/me', { headers: { cookie: session.cookie } });
    expect(after.body.balances.free_monthly).toBe(50);
  });

  it('answers each documented error', async () => {
    const account = await newAccount({ plan: 'free', credits: 0 });
    const session = await signIn(account.accountId);
    expectError(await api('/v1/me/identities/email', { method: 'POST', body: { email: address() } }), 401, 'signed_out');
    expectError(await api('/v1/me/identities/email', { method: 'POST', key: account.apiKey, body: { email: address() } }), 401, 'signed_out');
    expectError(await requestIdentity(session, { email: address() }, null), 403, 'csrf_rejected');
    expectError(await requestIdentity(session, { email: address() }, 'wrong'), 403, 'csrf_rejected');
    expectError(await requestIdentity(session, { email: 'nope' }), 422, 'invalid_email');
    expectError(await requestIdentity(session, { email: address(), other: true }), 400, 'invalid_request');
    const malformed = await api('/v1/me/identities/email', { method: 'POST', rawBody: '{', headers: { ...sessionHeaders(session), 'content-type': 'application/json' } });
    expectError(malformed, 400, 'invalid_request');
    for (const next of ['//evil.example', 'https://evil.example/', '/\\evil.example', 'relative', '/ok\nLocation: x']) {
      const refused = await requestIdentity(session, { email: address(), next });
      expectError(refused, 400, 'invalid_request');
      expect(refused.body.error.details).toEqual([{ field: 'next', reason: 'invalid value' }]);
    }
    for (let i = 0; i < 3; i++) expect((await requestIdentity(session, { email: address() })).status).toBe(202);
    const limited = await requestIdentity(session, { email: address() });
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  it('sends a notice, not a link, to an address another account holds; the caller sees the same 202', async () => {
    const email = address();
    const holder = await newAccount({ plan: 'free', credits: 0 });
    await serviceDb().account.update({ where: { id: holder.accountId }, data: { email, emailVerifiedAt: new Date() } });
    const session = await signIn((await newAccount({ plan: 'free', credits: 0 })).accountId);
    const accepted = await requestIdentity(session, { email });
    expect(accepted.status).toBe(202);
    const mail = await nextMailTo(mailDir(), email);
    expect(mail.text).not.toContain('token=');
    expect(mail.subject).toContain('already has an account');
  });

  it('answers 503 auth_unavailable when email delivery is not configured', async () => {
    const ctx = { ...serviceContext(), mailer: null };
    const account = await newAccount({ plan: 'free', credits: 0 });
    const principal = { kind: 'session' as const, sessionId: 'ses_x', csrfToken: 'x', accountId: account.accountId, plan: 'free' as const };
    await expect(requestEmailIdentity(ctx, { principal, email: address() })).rejects.toMatchObject({ code: 'auth_unavailable' });
    await expect(requestEmailSignIn(ctx, { email: address(), clientAddress: '127.0.0.1' })).rejects.toMatchObject({ code: 'auth_unavailable' });
    expect(await mailsTo(mailDir(), 'nobody@example.com')).toEqual([]);
  });
});
