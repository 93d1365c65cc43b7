import { isIP } from 'node:net';
import type { WithHeaders } from './api-request.ts';

/** Set by the web server from the connection (src/server.ts); a client cannot supply it. */
export const clientAddressHeader = 'x-svc-client-address';

/** The caller's network address, for per-client limits. */
export function clientAddress(request: WithHeaders): string {
  return request.headers.get(clientAddressHeader) ?? 'unknown';
}

/**
 * The client's address as the last `hops` proxies saw it. Each trusted proxy appends the
 * address it received the request from to X-Forwarded-For, so the entry `hops` places left
 * of the peer is the one the outermost trusted proxy saw; entries further left came from the
 * client and prove nothing. With no trusted proxy (the default), the peer address alone.
 */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, hops: number): string {
  const direct = peer ?? 'unknown';
  if (hops === 0) return direct;
  const forwarded = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const chain = [...forwarded, direct];
  // a chain shorter than the configured proxies: the request bypassed one; its leftmost entry is the best there is
  const seen = chain[Math.max(0, chain.length - 1 - hops)]!;
  return isIP(seen) ? seen : direct;
}
