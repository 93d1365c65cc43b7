// Which address the per-client limits count: the peer, or what the trusted proxies saw.
import { loadConfig } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { resolveClientAddress } from '../src/http/client-address.ts';

const trustedProxyHops = (value: string | undefined) => loadConfig({ SVC_TRUSTED_PROXY_HOPS: value }).web.trustedProxyHops;

describe('the client address', () => {
  it('is the peer address when no proxy is trusted, whatever X-Forwarded-For claims', () => {
    expect(resolveClientAddress('203.0.113.9', '198.51.100.1', 0)).toBe('203.0.113.9');
    expect(resolveClientAddress(undefined, undefined, 0)).toBe('unknown');
  });

  it('is the entry the outermost trusted proxy appended, not one the client forged', () => {
    // client 198.51.100.7 forges "1.2.3.4"; the load balancer (10.0.0.2) appends the client
    expect(resolveClientAddress('10.0.0.2', '1.2.3.4, 198.51.100.7', 1)).toBe('198.51.100.7');
    // two proxies: CDN appends the client, the load balancer appends the CDN edge
    expect(resolveClientAddress('10.0.0.2', ['1.2.3.4, 198.51.100.7', '172.16.0.5'], 2)).toBe('198.51.100.7');
    expect(resolveClientAddress('10.0.0.2', '2001:db8::7', 1)).toBe('2001:db8::7');
  });

  it('falls back to the peer when the chosen entry is not an address, and to the leftmost entry of a short chain', () => {
    expect(resolveClientAddress('10.0.0.2', 'unknown', 1)).toBe('10.0.0.2');
    expect(resolveClientAddress('10.0.0.2', '198.51.100.7', 3)).toBe('198.51.100.7');
    expect(resolveClientAddress('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
  });

  it('takes a hop count from 0 to 10 and refuses anything else at start', () => {
    expect(trustedProxyHops(undefined)).toBe(0);
    expect(trustedProxyHops('2')).toBe(2);
    expect(() => trustedProxyHops('-1')).toThrow(/SVC_TRUSTED_PROXY_HOPS/);
    expect(() => trustedProxyHops('11')).toThrow(/SVC_TRUSTED_PROXY_HOPS/);
    expect(() => trustedProxyHops('one')).toThrow(/SVC_TRUSTED_PROXY_HOPS/);
  });
});
