// One outgoing request under the egress policy (a GET, or a POST with a body), following redirects. Every hop is vetted again
// (shape, then every resolved address), and each connection goes to the vetted addresses
// themselves, so neither a redirect nor a DNS answer that changes (rebinding) can reach a
// private destination. One deadline covers the whole exchange, redirects and body included.
import type { LookupAddress } from 'node:dns';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { type EgressPolicy, type EgressRefusal, type EgressRules, type VettedTarget, vetUrl } from './url-policy.ts';

export type EgressGetFailure = 'timeout' | 'connection_failed' | 'http_status' | 'too_many_redirects' | 'response_too_large';

export interface EgressGetOptions {
  policy: EgressPolicy;
  rules: EgressRules;
  /** The whole exchange, every hop and the body included. */
  timeoutMs: number;
  /** Largest body read; a longer one (declared or streamed) fails with response_too_large. */
  maxBytes: number;
  maxRedirects: number;
  headers?: Record<string, string>;
  /** GET unless given; a POST sends `body`. */
  method?: 'GET' | 'POST';
  body?: string;
}

export type EgressGetResult =
  | { ok: true; status: number; contentType: string | null; bytes: Buffer }
  /** A refusal of the policy (the first URL or a redirect target), or a failure of the exchange. */
  | { ok: false; refusal: EgressRefusal }
  | { ok: false; failure: EgressGetFailure; status?: number; retryAfter?: string };

type Hop = { kind: 'redirect'; location: string } | { kind: 'done'; result: EgressGetResult };

export async function egressGet(url: string, options: EgressGetOptions): Promise<EgressGetResult> {
  const deadline = performance.now() + options.timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
  });
  try {
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const vetted = await Promise.race([vetUrl(current, options.policy, options.rules), expired]);
      if (vetted === 'timeout') return { ok: false, failure: 'timeout' };
      if (!vetted.ok) return { ok: false, refusal: vetted.refusal };
      const hop = await fetchOnce(vetted.target, options, deadline - performance.now());
      if (hop.kind === 'done') return hop.result;
      if (redirects >= options.maxRedirects) return { ok: false, failure: 'too_many_redirects' };
      try {
        current = new URL(hop.location, vetted.target.url).href;
      } catch {
        return { ok: false, refusal: 'url_malformed' };
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

function fetchOnce(target: VettedTarget, options: EgressGetOptions, remainingMs: number): Promise<Hop> {
  return new Promise<Hop>((resolve) => {
    let settled = false;
    const finish = (hop: Hop) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(hop);
    };
    const fail = (failure: EgressGetFailure) => finish({ kind: 'done', result: { ok: false, failure } });
    const addresses: LookupAddress[] = target.addresses.map((address) => ({ address, family: isIP(address) }));
    const request = target.url.protocol === 'http:' ? httpRequest : httpsRequest;
    const req = request({
      protocol: target.url.protocol,
      host: target.hostname,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      method: options.method ?? 'GET',
      headers: {
        accept: 'image/png, image/jpeg, image/webp',
        'user-agent': 'svc-image-preview/1',
        ...options.headers,
        ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
      },
      agent: false,
      // only the vetted addresses are ever connected to
      lookup: (_hostname, lookupOptions, callback) => {
        const first = addresses[0] as LookupAddress;
        if ((lookupOptions as { all?: boolean }).all) (callback as (error: null, list: LookupAddress[]) => void)(null, addresses);
        else (callback as (error: null, address: string, family: number) => void)(null, first.address, first.family);
      },
    });
    const timer = setTimeout(() => fail('timeout'), Math.max(0, remainingMs));
    req.on('error', () => fail('connection_failed'));
    req.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location) return finish({ kind: 'redirect', location });
      if (status < 200 || status >= 300) {
        const retryAfter = response.headers['retry-after'];
        return finish({ kind: 'done', result: { ok: false, failure: 'http_status', status, ...(retryAfter ? { retryAfter } : {}) } });
      }
      const declared = Number(response.headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > options.maxBytes) return fail('response_too_large');
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) return fail('response_too_large');
        chunks.push(chunk);
      });
      response.on('end', () => {
        const contentType = response.headers['content-type'] ?? null;
        finish({ kind: 'done', result: { ok: true, status, contentType, bytes: Buffer.concat(chunks) } });
      });
      response.on('error', () => fail('connection_failed'));
      response.on('aborted', () => fail('connection_failed'));
    });
    req.end(options.body);
  });
}
