import { randomUUID } from 'node:crypto';
import { createSignInLink } from '@svc/core';
import { sessionIdleTimeoutMs } from '../packages/core/src/auth/session-rules.ts';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, expectError, newAccount, serviceContext, serviceDb, suspend } from './support/api.ts';
import { svc } from './support/cli.ts';
import { openLink, sessionCookieFrom, sessionHeaders, signIn, signInForm, signInPath } from './support/sessions.ts';

const preview = { source: '<p>{{ name }}</p>', data: { name: 'Ada' } };

describe('sign-in links and sessions', () => {
  it('signs a browser in: a Secure HttpOnly __Host- cookie and a redirect to the dashboard', async () => {
    const account = await newAccount({ plan: 'starter', credits: 7 });
    const response = await openLink(await signInPath(account.accountId));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard');
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^__Host-svc_session=svc_ses_[0-9a-f]{64};/);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/']) expect(setCookie).toContain(attribute);
    expect(setCookie.toLowerCase()).not.toContain('domain=');

    const cookie = sessionCookieFrom(response);
    const me = await api('/v1/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: account.accountId,
      plan: 'starter',
      status: 'active',
      email: null,
      balances: { free_monthly: 0, subscription: 0, trial: 7, pack: 0 },
      reserved: 0,
      overage_this_month: 0,
    });
    expect(me.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // only the verifier is stored, never the cookie's secret
    const secret = cookie.split('=')[1]!;
    const stored = await serviceDb().session.findMany({ where: { accountId: account.accountId } });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.verifier).not.toContain(secret);
  });

  it('opening a link (GET or HEAD, as a mail scanner does) shows whom it signs in and uses nothing', async () => {
    const account = await newAccount();
    const path = await signInPath(account.accountId);
    const head = await fetch(`${baseUrl()}${path}`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const page = await fetch(`${baseUrl()}${path}`, { redirect: 'manual' });
      expect(page.status).toBe(200);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('set-cookie') ?? '').not.toContain('__Host-svc_session');
      const html = await page.text();
      expect(html).toContain(account.accountId);
      expect(html).toContain('<button type="submit">Sign in</button>');
    }
    const [link] = await serviceDb().authLink.findMany({ where: { accountId: account.accountId } });
    expect(link!.usedAt).toBeNull();
    expect(await serviceDb().session.count({ where: { accountId: account.accountId } })).toBe(0);
    // the page's button still signs in
    expect((await openLink(path)).status).toBe(303);
  });

  it('a page names the address a link signs in, or the address it opens a free account for', async () => {
    const email = `named-${randomUUID()}@example.com`;
    const account = await newAccount();
    await serviceDb().account.update({ where: { id: account.accountId }, data: { email } });
    const page = await fetch(`${baseUrl()}${await signInPath(account.accountId)}`);
    expect(await page.text()).toContain(`Sign in as <span class="who">${email}</span>`);
    const fresh = `fresh-${randomUUID()}@example.com`;
    const link = await createSignInLink(serviceContext(), { email: fresh });
    const newPage = await fetch(link.url.replace(/^https?:\/\/[^/]+/, baseUrl()));
    expect(await newPage.text()).toContain(`Create the free account of <span class="who">${fresh}</span>`);
  });

  it('refuses a sign-in POST from another site or without the page\'s token, and the link stays usable', async () => {
    const account = await newAccount();
    const path = await signInPath(account.accountId);
    const page = await fetch(`${baseUrl()}${path}`, { redirect: 'manual' });
    const form = await signInForm(page);
    const post = (headers: Record<string, string>, token = form.token) =>
      fetch(`${baseUrl()}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ form_token: token }).toString(),
      });
    const origin = new URL(baseUrl()).origin;
    // a form on another site, submitted in the victim's browser (which has the page's cookie)
    const crossSite = await post({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', cookie: form.cookie });
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).error.code).toBe('cross_origin_rejected');
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'same-site', origin }, {}] as Record<string, string>[]) {
      const refused = await post({ ...headers, cookie: form.cookie });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect((await refused.json()).error.code).toBe('cross_origin_rejected');
    }
    // same origin, but not this browser's page: no cookie, another browser's cookie, a wrong token
    const other = await signInForm(await fetch(`${baseUrl()}${path}`, { redirect: 'manual' }));
    for (const [cookie, token] of [['', form.token], [other.cookie, form.token], [form.cookie, other.token], [form.cookie, 'x'.repeat(43)]] as const) {
      const refused = await post({ origin, 'sec-fetch-site': 'same-origin', cookie }, token);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.code).toBe('csrf_rejected');
    }
    // a browser's form gets the refusal as a page
    const asPage = await post({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', accept: 'text/html', cookie: form.cookie });
    expect(asPage.status).toBe(403);
    expect(asPage.headers.get('content-type')).toContain('text/html');
    expect(await asPage.text()).toContain('Sign-in refused');
    expect(await serviceDb().session.count({ where: { accountId: account.accountId } })).toBe(0);

    const signedIn = await post({ origin, 'sec-fetch-site': 'same-origin', cookie: form.cookie });
    expect(signedIn.status).toBe(303);
    expect((await api('/v1/me', { headers: { cookie: sessionCookieFrom(signedIn) } })).body.id).toBe(account.accountId);
  });

  it('GET /v1/me with a bearer key has no csrf_token', async () => {
    const account = await newAccount();
    const me = await api('/v1/me', { key: account.apiKey });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(account.accountId);
    expect(me.body).not.toHaveProperty('csrf_token');
    expectError(await api('/v1/me'), 401, 'unauthorized');
  });

  it('a reused, an expired and an unknown link answer a plain page and never a session', async () => {
    const account = await newAccount();
    const path = await signInPath(account.accountId);
    expect((await openLink(path)).status).toBe(303);
    const reused = await openLink(path);
    expect(reused.status).toBe(410);
    expect(reused.headers.get('content-type')).toContain('text/html');
    expect(reused.headers.get('set-cookie')).toBeNull();
    expect(await reused.text()).toContain('cannot be used');

    const expiring = await signInPath(account.accountId);
    await serviceDb().authLink.updateMany({ where: { accountId: account.accountId, usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await openLink(expiring);
    expect(expired.status).toBe(410);
    expect(expired.headers.get('set-cookie')).toBeNull();

    for (const unknown of [`/auth/sign-in/svc_link_${'0'.repeat(64)}`, '/auth/sign-in/nonsense']) {
      const answer = await openLink(unknown);
      expect(answer.status).toBe(410);
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
  });

  it('never promotes a cookie presented before sign-in (session fixation)', async () => {
    const account = await newAccount();
    const planted = `__Host-svc_session=svc_ses_${'a'.repeat(64)}`;
    const response = await openLink(await signInPath(account.accountId), planted);
    expect(response.status).toBe(303);
    const minted = sessionCookieFrom(response);
    expect(minted).not.toBe(planted);
    expectError(await api('/v1/me', { headers: { cookie: planted } }), 401, 'signed_out');
    expect((await api('/v1/me', { headers: { cookie: minted } })).status).toBe(200);

    // a live session brought to a new sign-in ends; the new one has a new id and CSRF token
    const first = await signIn(account.accountId);
    const again = await openLink(await signInPath(account.accountId), first.cookie);
    const second = sessionCookieFrom(again);
    expect(second).not.toBe(first.cookie);
    expectError(await api('/v1/me', { headers: { cookie: first.cookie } }), 401, 'signed_out');
    const me = await api('/v1/me', { headers: { cookie: second } });
    expect(me.body.csrf_token).not.toBe(first.csrfToken);
  });

  it('refuses a write with the cookie and a missing or wrong CSRF token', async () => {
    const account = await newAccount();
    const session = await signIn(account.accountId);
    const missing = await api('/v1/templates/preview', { method: 'POST', body: preview, headers: sessionHeaders(session, null) });
    expectError(missing, 403, 'csrf_rejected');
    const wrong = await api('/v1/templates/preview', { method: 'POST', body: preview, headers: sessionHeaders(session, 'x'.repeat(43)) });
    expectError(wrong, 403, 'csrf_rejected');
    expectError(await api('/v1/auth/sign-out', { method: 'POST', headers: sessionHeaders(session, null) }), 403, 'csrf_rejected');
    const ok = await api('/v1/templates/preview', { method: 'POST', body: preview, headers: sessionHeaders(session) });
    expect(ok.status).toBe(200);
    expect(ok.body.html).toContain('Ada');
  });

  it('accepts the cookie on webhook tests, the delivery log and image URL preview, and ignores it on bearer-only routes', async () => {
    const account = await newAccount();
    const session = await signIn(account.accountId);
    const missingWebhook = `wh_${'0'.repeat(32)}`;
    expectError(await api(`/v1/webhooks/${missingWebhook}/deliveries`, { headers: { cookie: session.cookie } }), 404, 'not_found');
    expectError(await api(`/v1/webhooks/${missingWebhook}/test`, { method: 'POST', headers: sessionHeaders(session) }), 404, 'not_found');
    expectError(await api(`/v1/webhooks/${missingWebhook}/test`, { method: 'POST', headers: sessionHeaders(session, null) }), 403, 'csrf_rejected');
    // image URL preview takes the cookie with the CSRF token (a private address is refused by policy, after authentication)
    const image = { url: 'http://10.0.0.1/logo.png' };
    expectError(await api('/v1/image-assets/preview', { method: 'POST', body: image, headers: sessionHeaders(session, null) }), 403, 'csrf_rejected');
    expectError(await api('/v1/image-assets/preview', { method: 'POST', body: image, headers: sessionHeaders(session) }), 400, 'image_url_invalid');
    // bearer-only routes never read the cookie
    expectError(await api('/v1/image-assets/00/content', { headers: { cookie: session.cookie } }), 401, 'unauthorized');
    expectError(await api('/v1/keys', { headers: { cookie: session.cookie } }), 401, 'unauthorized');
    expectError(await api('/v1/templates', { headers: { cookie: session.cookie } }), 401, 'unauthorized');
    expectError(await api('/v1/pdf', { method: 'POST', body: { html: '<p>x</p>' }, headers: sessionHeaders(session) }), 401, 'unauthorized');
  });

  it('uses the bearer key when a request has both', async () => {
    const mine = await newAccount();
    const other = await newAccount();
    const session = await signIn(other.accountId);
    const me = await api('/v1/me', { key: mine.apiKey, headers: { cookie: session.cookie } });
    expect(me.body.id).toBe(mine.accountId);
    expect(me.body).not.toHaveProperty('csrf_token');
    // a bad key does not fall back to the cookie
    expectError(await api('/v1/me', { key: 'svc_sk_v1_nope', headers: { cookie: session.cookie } }), 401, 'unauthorized');
  });

  it('ends at sign-out, clearing the cookie', async () => {
    const account = await newAccount();
    const session = await signIn(account.accountId);
    const out = await api('/v1/auth/sign-out', { method: 'POST', headers: sessionHeaders(session) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^__Host-svc_session=;.*Max-Age=0/);
    expectError(await api('/v1/me', { headers: { cookie: session.cookie } }), 401, 'signed_out');
    expectError(await api('/v1/auth/sign-out', { method: 'POST', headers: sessionHeaders(session) }), 401, 'signed_out');
    expectError(await api('/v1/auth/sign-out', { method: 'POST' }), 401, 'signed_out');
  });

  it('ends when the account is suspended, and stays ended after reinstatement', async () => {
    const account = await newAccount();
    const session = await signIn(account.accountId);
    await suspend(account.accountId);
    expectError(await api('/v1/me', { headers: { cookie: session.cookie } }), 401, 'signed_out');
    expectError(await api('/v1/templates/preview', { method: 'POST', body: preview, headers: sessionHeaders(session) }), 401, 'signed_out');
    // a suspended account's link signs nobody in
    const link = await openLink(await signInPath(account.accountId));
    expect(link.status).toBe(410);
    expect(link.headers.get('set-cookie')).toBeNull();
    await serviceDb().account.update({ where: { id: account.accountId }, data: { status: 'active', suspendedAt: null } });
    expectError(await api('/v1/me', { headers: { cookie: session.cookie } }), 401, 'signed_out');
  });

  it('ends after the idle timeout and at the absolute lifetime', async () => {
    const account = await newAccount();
    const idle = await signIn(account.accountId);
    await serviceDb().session.updateMany({ where: { accountId: account.accountId }, data: { lastSeenAt: new Date(Date.now() - sessionIdleTimeoutMs - 1000) } });
    expectError(await api('/v1/me', { headers: { cookie: idle.cookie } }), 401, 'signed_out');
    const old = await signIn(account.accountId);
    await serviceDb().session.updateMany({ where: { accountId: account.accountId, endedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await api('/v1/me', { headers: { cookie: old.cookie } }), 401, 'signed_out');
  });

  it('`svc account sign-in-link` prints exactly {url, expires_at} for a 15-minute one-use link', async () => {
    const account = await newAccount();
    const result = await svc(['account', 'sign-in-link', account.accountId, '--json'], { env: { SVC_PUBLIC_URL: 'https://svc.example' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]!);
    expect(Object.keys(printed).sort()).toEqual(['expires_at', 'url']);
    expect(printed.url).toMatch(/^https:\/\/svc\.example\/auth\/sign-in\/svc_link_[0-9a-f]{64}$/);
    const minutes = (Date.parse(printed.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(13);
    expect(minutes).toBeLessThanOrEqual(15);
    const opened = await openLink(new URL(printed.url).pathname);
    expect(opened.status).toBe(303);
    expect((await openLink(new URL(printed.url).pathname)).status).toBe(410);
  }, 120_000);
});
