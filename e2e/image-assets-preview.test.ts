// POST /v1/image-assets/preview over real HTTP. Refusals need no network: the policy judges
// literal addresses before any connection. Fetches go to a local image server that a web
// process of its own allowlists (SVC_UNSAFE_EGRESS_ALLOWLIST), the way webhook tests reach theirs.
import { type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { api, apiAt, emptyBucket, expectError, newAccount } from './support/api.ts';
import { freePort, startProcess, stopProcess, waitFor } from './support/global-setup.ts';
import { animatedWebp, jpeg, png } from './support/images.ts';

const preview = (key: string, url: string, base?: string) =>
  base ? apiAt(base, '/v1/image-assets/preview', { method: 'POST', key, body: { url } }) : api('/v1/image-assets/preview', { method: 'POST', key, body: { url } });

describe('POST /v1/image-assets/preview: refusals before any connection', () => {
  it('refuses private, loopback, link-local and metadata destinations in every spelling', async () => {
    const cases: [string, string][] = [
      ['http://127.0.0.1/a.png', 'loopback_address'],
      ['http://localhost/a.png', 'loopback_address'],
      ['http://2130706433/a.png', 'loopback_address'],
      ['http://0x7f000001/a.png', 'loopback_address'],
      ['http://0x7f.1/a.png', 'loopback_address'],
      ['http://0177.0.0.1/a.png', 'loopback_address'],
      ['https://[::1]/a.png', 'loopback_address'],
      ['http://[::ffff:127.0.0.1]/a.png', 'loopback_address'],
      ['http://[::ffff:a9fe:a9fe]/latest/meta-data', 'metadata_address'],
      ['http://169.254.169.254/latest/meta-data/', 'metadata_address'],
      ['http://2852039166/latest/meta-data/', 'metadata_address'],
      ['http://169.254.10.20/a.png', 'link_local_address'],
      ['http://[fe80::1]/a.png', 'link_local_address'],
      ['http://10.0.0.5/a.png', 'private_address'],
      ['http://192.168.1.1/a.png', 'private_address'],
      ['http://[fd12::1]/a.png', 'private_address'],
      ['http://0.0.0.0/a.png', 'unspecified_address'],
      ['http://user:secret@example.com/a.png', 'credentials_not_allowed'],
      ['ftp://example.com/a.png', 'scheme_not_allowed'],
      ['file:///etc/passwd', 'scheme_not_allowed'],
      ['http://example.com:8080/a.png', 'port_not_allowed'],
      ['not a url', 'url_malformed'],
    ];
    let key = '';
    for (const [index, [url, code]] of cases.entries()) {
      // a fresh key every ten requests stays within the rate limit
      if (index % 10 === 0) key = (await newAccount()).apiKey;
      const error = expectError(await preview(key, url), 400, 'image_url_invalid');
      expect(error.details, url).toEqual([{ field: `url.${code}`, reason: 'invalid value' }]);
    }
  });

  it('has a rate limit per key: 429 with Retry-After once the bucket is empty', async () => {
    const account = await newAccount();
    for (let request = 0; request < 5; request++) expectError(await preview(account.apiKey, 'http://10.0.0.1/a.png'), 400, 'image_url_invalid');
    await emptyBucket('image_url_preview', account);
    const limited = await preview(account.apiKey, 'http://10.0.0.1/a.png');
    const wait = expectError(limited, 429, 'rate_limited').retry?.retry_after_seconds;
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('retry-after')).toBe(String(wait));
  });

  it('takes URLs up to 4096 characters', async () => {
    const account = await newAccount();
    const long = `http://10.0.0.1/${'a'.repeat(4096)}`;
    expect(expectError(await preview(account.apiKey, long), 400, 'invalid_request').details).toEqual([{ field: 'url', reason: 'invalid value' }]);
    const fits = `http://10.0.0.1/${'a'.repeat(4096 - 'http://10.0.0.1/'.length)}`;
    expectError(await preview(account.apiKey, fits), 400, 'image_url_invalid');
  });
});

describe('POST /v1/image-assets/preview: fetching', () => {
  let images: Server;
  let imagePort: number;
  let database: TestDatabase;
  let web: ChildProcess;
  let base: string;
  let key: string;
  const routes = new Map<string, (res: ServerResponse) => void | Promise<void>>();
  let requests = 0;

  beforeAll(async () => {
    images = createServer((req, res) => {
      requests++;
      const route = routes.get(req.url ?? '');
      if (!route) return void res.writeHead(404).end();
      void route(res);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imagePort = (images.address() as AddressInfo).port;
    database = await createTestDatabase(inject('dbServerUrl'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-preview-'));
    web = startProcess('apps/web/src/server.ts', {
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_UNSAFE_EGRESS_ALLOWLIST: `127.0.0.1:${imagePort}`,
    });
    await waitFor(`${base}/v1/openapi.json`, web);
  });
  // a fresh key per test: the previews of one test stay within the key's burst of 10
  beforeEach(async () => {
    const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig() });
    key = (await createAccount(ctx, { plan: 'scale', credits: 0 })).apiKey;
  });
  afterAll(async () => {
    if (web) await stopProcess(web);
    await database?.drop();
    await new Promise((resolve) => images?.close(resolve));
  });

  const serve = (path: string, type: string | null, bytes: Buffer) =>
    routes.set(path, (res) => void res.writeHead(200, type ? { 'content-type': type } : {}).end(bytes));
  const redirect = (path: string, location: string) => routes.set(path, (res) => void res.writeHead(302, { location }).end());
  const at = (path: string) => `http://127.0.0.1:${imagePort}${path}`;

  it('answers the verified bytes with their type, and stores nothing', async () => {
    const bytes = await png(30, 20, '#ff00ff');
    serve('/pic.png', 'image/png', bytes);
    const response = await fetch(`${base}/v1/image-assets/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: at('/pic.png') }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await database.db.asset.count()).toBe(0);
  });

  it('judges an untyped answer by its bytes, and refuses one typed as something else', async () => {
    serve('/untyped', null, await jpeg(8, 8));
    const untyped = await preview(key, at('/untyped'), base);
    expect(untyped.status).toBe(200);
    expect(untyped.headers.get('content-type')).toBe('image/jpeg');
    serve('/lies.png', 'image/png', await jpeg(8, 8));
    expect(expectError(await preview(key, at('/lies.png'), base), 422, 'image_asset_invalid').details).toEqual([{ field: 'url.type_mismatch', reason: 'invalid value' }]);
    serve('/page.html', 'text/html', Buffer.from('<p>hi</p>'));
    expectError(await preview(key, at('/page.html'), base), 422, 'image_asset_type_unsupported');
    serve('/moving.webp', 'image/webp', await animatedWebp());
    expect(expectError(await preview(key, at('/moving.webp'), base), 422, 'image_asset_invalid').details).toEqual([{ field: 'url.animated', reason: 'invalid value' }]);
  });

  it('follows at most five redirects, vetting every one', async () => {
    const bytes = await png(4, 4);
    serve('/final.png', 'image/png', bytes);
    for (let hop = 1; hop <= 6; hop++) redirect(`/hop${hop}`, hop === 1 ? '/final.png' : at(`/hop${hop - 1}`));
    const five = await preview(key, at('/hop5'), base);
    expect(five.status).toBe(200);
    expect(expectError(await preview(key, at('/hop6'), base), 422, 'image_url_unavailable').details).toEqual([{ field: 'url.too_many_redirects', reason: 'invalid value' }]);
  });

  it('refuses a redirect from an allowed host to a private or loopback address without connecting there', async () => {
    redirect('/to-private', 'http://10.1.2.3/secret.png');
    redirect('/to-metadata', 'http://169.254.169.254/latest/meta-data/');
    // the same loopback host on the default port is not allowlisted
    redirect('/to-loopback', 'http://127.0.0.1/admin.png');
    redirect('/to-credentials', `http://user:pw@127.0.0.1:${imagePort}/final.png`);
    for (const [path, code] of [
      ['/to-private', 'private_address'],
      ['/to-metadata', 'metadata_address'],
      ['/to-loopback', 'loopback_address'],
      ['/to-credentials', 'credentials_not_allowed'],
    ]) {
      const before = requests;
      expect(expectError(await preview(key, at(path!), base), 400, 'image_url_invalid').details).toEqual([{ field: `url.${code}`, reason: 'invalid value' }]);
      expect(requests).toBe(before + 1);
    }
  });

  it('answers 422 image_url_unavailable for an error status, 413 past 10 MiB declared or streamed', async () => {
    expect(expectError(await preview(key, at('/missing.png'), base), 422, 'image_url_unavailable').details).toEqual([{ field: 'url.http_status', reason: 'invalid value' }]);
    const huge = Buffer.concat([await png(4, 4), Buffer.alloc(10 * 1024 * 1024)]);
    serve('/huge.png', 'image/png', huge);
    expect(expectError(await preview(key, at('/huge.png'), base), 413, 'image_asset_too_large').details).toEqual([{ field: 'url.too_large', reason: 'invalid value' }]);
    routes.set('/streamed.png', (res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(huge);
      res.end();
    });
    expectError(await preview(key, at('/streamed.png'), base), 413, 'image_asset_too_large');
  });
});
