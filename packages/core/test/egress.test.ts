// The egress policy: address spellings that have beaten other services, resolution through
// an injected resolver (no real DNS), refusals that happen before any connection, and the
// request itself against loopback receivers only (through the allowlist).
import { execFile } from 'node:child_process';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { classifyAddress, type EgressPolicy, parseAllowlist, type Resolver, sendWebhookRequest, vetUrl } from '@svc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../../e2e/support/webhook-receiver.ts';
import { makeTestTls, type TestTls } from '../../../e2e/support/webhook-tls.ts';

/** A resolver that fails the test if it is ever asked: literal addresses need no DNS. */
const noDns: Resolver = async (host) => {
  throw new Error(`unexpected DNS lookup of ${host}`);
};
const fixedDns = (answers: Record<string, string[]>): Resolver => async (host) => {
  const found = answers[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found;
};
const policy = (resolver: Resolver, allowlist = ''): EgressPolicy => ({ allowlist: parseAllowlist(allowlist), resolver });
const refusal = async (url: string, resolver: Resolver = noDns, allowlist = '') => {
  const result = await vetUrl(url, policy(resolver, allowlist));
  return result.ok ? null : result.refusal;
};

describe('address classification', () => {
  it.each([
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['2606:4700:4700::1111', null],
    ['0.0.0.0', 'unspecified_address'],
    ['0.1.2.3', 'reserved_address'],
    ['10.1.2.3', 'private_address'],
    ['172.16.0.1', 'private_address'],
    ['172.31.255.255', 'private_address'],
    ['172.32.0.1', null],
    ['192.168.1.1', 'private_address'],
    ['127.0.0.1', 'loopback_address'],
    ['127.255.255.254', 'loopback_address'],
    ['169.254.169.254', 'metadata_address'],
    ['169.254.170.2', 'metadata_address'],
    ['100.100.100.200', 'metadata_address'],
    ['169.254.1.1', 'link_local_address'],
    ['100.64.0.1', 'cgnat_address'],
    ['100.127.255.255', 'cgnat_address'],
    ['100.128.0.1', null],
    ['198.18.0.1', 'benchmarking_address'],
    ['198.19.255.255', 'benchmarking_address'],
    ['198.20.0.1', null],
    ['224.0.0.1', 'multicast_address'],
    ['239.255.255.250', 'multicast_address'],
    ['240.0.0.1', 'reserved_address'],
    ['255.255.255.255', 'reserved_address'],
    ['192.0.2.10', 'reserved_address'],
    ['198.51.100.10', 'reserved_address'],
    ['203.0.113.10', 'reserved_address'],
    ['192.0.0.8', 'reserved_address'],
    ['::', 'unspecified_address'],
    ['::1', 'loopback_address'],
    ['[::1]', 'loopback_address'],
    ['::ffff:127.0.0.1', 'loopback_address'],
    ['::ffff:7f00:1', 'loopback_address'],
    ['::ffff:10.0.0.1', 'private_address'],
    ['::ffff:169.254.169.254', 'metadata_address'],
    ['::ffff:8.8.8.8', null],
    ['::127.0.0.1', 'reserved_address'],
    ['64:ff9b::127.0.0.1', 'loopback_address'],
    ['64:ff9b::a00:1', 'private_address'],
    ['64:ff9b::a9fe:a9fe', 'metadata_address'],
    ['64:ff9b::808:808', null],
    ['64:ff9b:1::1', 'private_address'],
    ['2002:7f00:1::', 'loopback_address'],
    ['2002:a9fe:a9fe::1', 'metadata_address'],
    ['2002:c0a8:101::1', 'private_address'],
    ['2002:6440:1::', 'cgnat_address'],
    ['2002:808:808::1', null],
    ['2001:db8::1', 'reserved_address'],
    ['2001::1', 'reserved_address'],
    ['fc00::1', 'private_address'],
    ['fd12:3456::1', 'private_address'],
    ['fd00:ec2::254', 'metadata_address'],
    ['fe80::1', 'link_local_address'],
    ['fe80::1%eth0', 'invalid_address'],
    ['fec0::1', 'private_address'],
    ['ff02::1', 'multicast_address'],
    ['100::1', 'reserved_address'],
    ['4000::1', 'reserved_address'],
    ['not an address', 'invalid_address'],
    ['0x7f.0.0.1', 'invalid_address'],
  ])('%s -> %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('URL policy', () => {
  it.each([
    ['https://2130706433/', 'loopback_address'], // decimal
    ['https://017700000001/', 'loopback_address'], // octal
    ['https://0177.0.0.1/', 'loopback_address'],
    ['https://0x7f000001/', 'loopback_address'], // hex
    ['https://0x7f.0x0.0x0.0x1/', 'loopback_address'],
    ['https://127.1/', 'loopback_address'],
    ['https://127.0.0.1./', 'loopback_address'],
    ['https://[::ffff:127.0.0.1]/', 'loopback_address'],
    ['https://[::ffff:7f00:1]/', 'loopback_address'],
    ['https://0.0.0.0/', 'unspecified_address'],
    ['https://0/', 'unspecified_address'],
    ['https://[::]/', 'unspecified_address'],
    ['https://[::1]/', 'loopback_address'],
    ['https://[64:ff9b::7f00:1]/', 'loopback_address'],
    ['https://[64:ff9b::192.168.0.1]/', 'private_address'],
    ['https://[2002:a00:1::]/', 'private_address'],
    ['https://169.254.169.254/latest/meta-data/', 'metadata_address'],
    ['https://2852039166/', 'metadata_address'], // 169.254.169.254 in decimal
    ['https://100.64.1.1/', 'cgnat_address'],
    ['https://198.18.5.5/', 'benchmarking_address'],
    ['https://224.0.0.251/', 'multicast_address'],
    ['https://240.1.1.1/', 'reserved_address'],
    ['https://10.0.0.1/', 'private_address'],
  ])('%s is refused as %s without DNS', async (url, expected) => {
    expect(await refusal(url)).toBe(expected);
  });

  it('accepts a public address literal on port 443, with or without the explicit port', async () => {
    expect(await refusal('https://93.184.215.14/hooks?x=1')).toBeNull();
    expect(await refusal('https://93.184.215.14:443/hooks')).toBeNull();
    expect(await refusal('https://[2606:4700:4700::1111]/')).toBeNull();
  });

  it.each([
    ['http://93.184.215.14/', 'scheme_not_https'],
    ['ftp://93.184.215.14/', 'scheme_not_https'],
    ['https://93.184.215.14:8443/', 'port_not_allowed'],
    ['https://93.184.215.14:80/', 'port_not_allowed'],
    ['https://user:pass@93.184.215.14/', 'credentials_not_allowed'],
    ['https://user@93.184.215.14/', 'credentials_not_allowed'],
    ['not a url', 'url_malformed'],
    ['https://', 'url_malformed'],
    [`https://93.184.215.14/${'a'.repeat(2030)}`, 'url_too_long'],
  ])('%.60s is refused as %s', async (url, expected) => {
    expect(await refusal(url)).toBe(expected);
  });

  it('refuses a name that resolves to a private address, and a mixed public and private answer', async () => {
    const dns = fixedDns({
      'internal.example': ['10.0.0.5'],
      'mixed.example': ['93.184.215.14', '127.0.0.1'],
      'mixed6.example': ['2606:4700:4700::1111', '::ffff:192.168.1.1'],
      'metadata.example': ['169.254.169.254'],
      'public.example': ['93.184.215.14', '2606:4700:4700::1111'],
    });
    expect(await refusal('https://internal.example/hook', dns)).toBe('private_address');
    expect(await refusal('https://mixed.example/hook', dns)).toBe('loopback_address');
    expect(await refusal('https://mixed6.example/hook', dns)).toBe('private_address');
    expect(await refusal('https://metadata.example/hook', dns)).toBe('metadata_address');
    expect(await refusal('https://nowhere.example/hook', dns)).toBe('host_not_resolvable');
    const accepted = await vetUrl('https://public.example/hook', policy(dns));
    expect(accepted.ok && accepted.target.addresses).toEqual(['93.184.215.14', '2606:4700:4700::1111']);
  });

  it('refuses localhost through the system resolver (which answers it from the hosts file)', async () => {
    expect(await vetUrl('https://localhost/hook', { allowlist: [] })).toMatchObject({ ok: false, refusal: 'loopback_address' });
  });

  it('lets an allowlisted host bypass the address and port rules, but not the scheme or credential rules', async () => {
    const dns = fixedDns({ localhost: ['127.0.0.1'] });
    expect(await refusal('https://localhost:8443/hook', dns, 'localhost:8443')).toBeNull();
    expect(await refusal('https://localhost:9443/hook', dns, 'localhost:8443')).toBe('port_not_allowed');
    expect(await refusal('https://localhost:9443/hook', dns, 'localhost')).toBeNull();
    expect(await refusal('https://127.0.0.1:8443/hook', dns, '127.0.0.1:8443')).toBeNull();
    expect(await refusal('http://localhost:8443/hook', dns, 'localhost:8443')).toBe('scheme_not_https');
    expect(await refusal('https://a:b@localhost:8443/hook', dns, 'localhost:8443')).toBe('credentials_not_allowed');
    expect(await refusal('https://127.0.0.2:8443/hook', dns, 'localhost:8443')).toBe('port_not_allowed');
    expect(parseAllowlist(' localhost:8443, [::1]:9000 ,example.test')).toEqual([
      { hostname: 'localhost', port: 8443 },
      { hostname: '[::1]', port: 9000 },
      { hostname: 'example.test', port: null },
    ]);
    expect(() => parseAllowlist('bad host:1')).toThrow();
  });
});

describe('requests', () => {
  let tcp: Server;
  let tcpPort = 0;
  let accepted = 0;
  const sockets: Socket[] = [];
  let tls: TestTls;
  let receiver: Receiver;

  beforeAll(async () => {
    tcp = createTcpServer((socket) => {
      accepted++;
      sockets.push(socket);
      socket.on('error', () => {});
      // accepts and never answers: a receiver that hangs
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    tcpPort = (tcp.address() as AddressInfo).port;
    tls = makeTestTls();
    receiver = await startReceiver(tls);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => tcp.close(resolve));
    await receiver.close();
  });

  const post = (url: string, allowlist = '', resolver?: Resolver, timeoutMs?: number) =>
    sendWebhookRequest(url, { headers: { 'content-type': 'application/json' }, body: '{}', policy: { allowlist: parseAllowlist(allowlist), resolver }, timeoutMs });

  it('refuses before connecting: nothing reaches a listener on a refused address or port', async () => {
    const before = accepted;
    expect(await post(`https://127.0.0.1:${tcpPort}/`)).toEqual({ statusCode: null, failure: 'port_not_allowed' });
    expect(await post(`https://localhost:${tcpPort}/`)).toEqual({ statusCode: null, failure: 'port_not_allowed' });
    const rebinding = fixedDns({ 'rebind.example': ['93.184.215.14', '127.0.0.1'] });
    expect(await post(`https://rebind.example:${tcpPort}/`, `rebind.example:1`, rebinding)).toEqual({ statusCode: null, failure: 'port_not_allowed' });
    expect(await post('https://rebind.example/', '', rebinding)).toEqual({ statusCode: null, failure: 'loopback_address' });
    expect(accepted).toBe(before);
  });

  it('connects to the vetted address itself, whatever the name resolves to later', async () => {
    // the name is only ever resolved by the policy; the socket goes to that answer
    const before = accepted;
    let lookups = 0;
    const rebinding: Resolver = async () => (++lookups === 1 ? ['127.0.0.1'] : ['198.51.100.7']);
    const result = await post(`https://hang.example:${tcpPort}/`, `hang.example:${tcpPort}`, rebinding, 600);
    expect(result).toEqual({ statusCode: null, failure: 'timeout' });
    expect(lookups).toBe(1);
    expect(accepted).toBe(before + 1);
  });

  it('verifies TLS even for allowlisted hosts: an untrusted certificate fails without a status', async () => {
    const before = receiver.received.length;
    const result = await post(`https://localhost:${receiver.port}/hook`, `localhost:${receiver.port}`);
    expect(result).toEqual({ statusCode: null, failure: 'connection_failed' });
    expect(receiver.received.length).toBe(before);
  });

  describe('against a trusted loopback receiver (child process with the test CA)', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const run = async (path: string, timeoutMs = 10_000) => {
      const script = `
        import { sendWebhookRequest } from './packages/core/src/webhooks/send-webhook-request.ts';
        import { parseAllowlist } from './packages/core/src/egress/outgoing-url-policy.ts';
        const result = await sendWebhookRequest(process.env.TARGET, { headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: '{"a":1}',
          policy: { allowlist: parseAllowlist(process.env.ALLOW) }, timeoutMs: Number(process.env.TIMEOUT) });
        process.stdout.write(JSON.stringify(result));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: root,
        env: {
          ...process.env,
          NODE_EXTRA_CA_CERTS: tls.bundlePath,
          TARGET: `https://localhost:${receiver.port}${path}`,
          ALLOW: `localhost:${receiver.port}`,
          TIMEOUT: String(timeoutMs),
        },
      });
      return JSON.parse(stdout) as { statusCode: number | null; failure: string | null };
    };

    it('posts the body once and reports a 2xx as delivered', async () => {
      receiver.respondWith((_request, response) => response.writeHead(204).end());
      const before = receiver.received.length;
      expect(await run('/ok?x=1')).toEqual({ statusCode: 204, failure: null });
      expect(receiver.received.length).toBe(before + 1);
      const got = receiver.received[before]!;
      expect(got).toMatchObject({ method: 'POST', path: '/ok?x=1', rawBody: '{"a":1}' });
      expect(got.headers['x-test']).toBe('yes');
    });

    it('does not follow redirects: a 3xx is a failure with its status', async () => {
      receiver.respondWith((_request, response) => response.writeHead(302, { location: 'https://127.0.0.1/' }).end());
      const before = receiver.received.length;
      expect(await run('/redirect')).toEqual({ statusCode: 302, failure: 'redirect' });
      expect(receiver.received.length).toBe(before + 1);
    });

    it('reports other statuses as failures', async () => {
      receiver.respondWith((_request, response) => response.writeHead(500).end('no'));
      expect(await run('/error')).toEqual({ statusCode: 500, failure: 'http_status' });
    });

    it('reads at most 16 KiB: headers past the limit fail without a status, a long body is cut and the status kept', async () => {
      receiver.respondWith((_request, response) => response.writeHead(200, { 'x-big': 'b'.repeat(17 * 1024) }).end());
      expect(await run('/big-headers')).toEqual({ statusCode: null, failure: 'response_too_large' });
      receiver.respondWith((_request, response) => {
        response.writeHead(200);
        response.write('x'.repeat(64 * 1024));
        // never ends: only the first 16 KiB are read
      });
      expect(await run('/big-body')).toEqual({ statusCode: 200, failure: null });
    });

    it('gives up when the receiver does not answer in time', async () => {
      receiver.respondWith(() => {});
      const started = Date.now();
      expect(await run('/slow', 1000)).toEqual({ statusCode: null, failure: 'timeout' });
      expect(Date.now() - started).toBeLessThan(20_000);
    });
  });
});
