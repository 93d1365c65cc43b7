// The egress request reading a body (image URL previews, the AI provider), against local servers
// reached through the allowlist: one deadline for the whole exchange, redirects vetted hop by hop, the body capped,
// and the socket pinned to the vetted address.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { egressRequest, type EgressRequestOptions, imageUrlEgressRules, parseAllowlist, type Resolver } from '@svc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('egressRequest reading a body', () => {
  let server: Server;
  let port: number;
  const routes = new Map<string, (res: ServerResponse) => void>();
  const open = new Set<ServerResponse>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      open.add(res);
      res.on('close', () => open.delete(res));
      const route = routes.get(req.url ?? '');
      if (route) route(res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const options = (overrides: Partial<EgressRequestOptions> = {}): EgressRequestOptions => ({
    policy: { allowlist: parseAllowlist(`127.0.0.1:${port},images.test:${port}`), resolver: async () => ['127.0.0.1'] },
    rules: imageUrlEgressRules,
    method: 'GET',
    headers: {},
    timeoutMs: 15_000,
    maxBytes: 1024,
    answer: { read: 'body', maxRedirects: 5 },
    ...overrides,
  });
  const at = (path: string) => `http://127.0.0.1:${port}${path}`;

  it('reads a body and its type', async () => {
    routes.set('/ok', (res) => res.writeHead(200, { 'content-type': 'image/png' }).end('abc'));
    expect(await egressRequest(at('/ok'), options())).toEqual({ ok: true, status: 200, contentType: 'image/png', bytes: Buffer.from('abc') });
  });

  it('cuts a slow server at the deadline, which covers the whole exchange', async () => {
    // headers at once, then the body trickles and never ends
    routes.set('/slow', (res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      const timer = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(timer));
    });
    const started = performance.now();
    expect(await egressRequest(at('/slow'), options({ timeoutMs: 700 }))).toEqual({ ok: false, failure: 'timeout' });
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(650);
    // a deadline that did not fire would wait for the test's own timeout
    expect(took).toBeLessThan(15_000);
    // a server that never answers at all
    routes.set('/silent', () => {});
    expect(await egressRequest(at('/silent'), options({ timeoutMs: 500 }))).toEqual({ ok: false, failure: 'timeout' });
  });

  it('counts redirects against the same deadline', async () => {
    routes.set('/late-redirect', (res) => void setTimeout(() => res.writeHead(302, { location: '/silent' }).end(), 300));
    routes.set('/silent', () => {});
    const started = performance.now();
    expect(await egressRequest(at('/late-redirect'), options({ timeoutMs: 600 }))).toEqual({ ok: false, failure: 'timeout' });
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('caps the body, declared or streamed', async () => {
    routes.set('/declared', (res) => res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000)));
    routes.set('/streamed', (res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(800));
      res.write(Buffer.alloc(800));
      res.end();
    });
    expect(await egressRequest(at('/declared'), options())).toEqual({ ok: false, failure: 'response_too_large' });
    expect(await egressRequest(at('/streamed'), options())).toEqual({ ok: false, failure: 'response_too_large' });
  });

  it('vets every redirect target, relative ones included', async () => {
    routes.set('/to-private', (res) => res.writeHead(301, { location: 'http://192.168.0.10/x.png' }).end());
    routes.set('/to-rebinding', (res) => res.writeHead(307, { location: 'http://evil.test/x.png' }).end());
    routes.set('/relative', (res) => res.writeHead(302, { location: '/ok' }).end());
    routes.set('/ok', (res) => res.writeHead(200, { 'content-type': 'image/png' }).end('abc'));
    expect(await egressRequest(at('/to-private'), options())).toEqual({ ok: false, refusal: 'private_address' });
    const resolver: Resolver = async (host) => (host === 'evil.test' ? ['93.184.215.14', '127.0.0.1'] : ['127.0.0.1']);
    expect(await egressRequest(at('/to-rebinding'), options({ policy: { allowlist: parseAllowlist(`127.0.0.1:${port}`), resolver } }))).toEqual({
      ok: false,
      refusal: 'loopback_address',
    });
    expect(await egressRequest(at('/relative'), options())).toMatchObject({ ok: true, bytes: Buffer.from('abc') });
  });

  it('connects to the vetted address, not to a later DNS answer', async () => {
    let lookups = 0;
    const resolver: Resolver = async () => (++lookups === 1 ? ['127.0.0.1'] : ['198.51.100.7']);
    routes.set('/ok', (res) => res.writeHead(200).end('abc'));
    const result = await egressRequest(`http://images.test:${port}/ok`, options({ policy: { allowlist: parseAllowlist(`images.test:${port}`), resolver } }));
    expect(result).toMatchObject({ ok: true, bytes: Buffer.from('abc') });
    expect(lookups).toBe(1);
  });

  it('refuses a connection that fails and a scheme or port outside the rules', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const allow = { allowlist: parseAllowlist(`127.0.0.1:${closedPort}`) };
    expect(await egressRequest(`http://127.0.0.1:${closedPort}/x`, options({ policy: allow }))).toEqual({ ok: false, failure: 'connection_failed' });
    expect(await egressRequest('gopher://example.com/', options())).toEqual({ ok: false, refusal: 'scheme_not_allowed' });
    expect(await egressRequest('https://example.com:8443/', options())).toEqual({ ok: false, refusal: 'port_not_allowed' });
  });
});
