// One outgoing HTTPS POST under the egress policy. The host is resolved and vetted here,
// and the socket connects to the vetted addresses themselves, so a DNS answer that
// changes between the check and the connection (rebinding) cannot redirect it.
import type { LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { type EgressPolicy, type EgressRefusal, type VettedTarget, vetUrl } from './url-policy.ts';

export const egressTimeoutMs = 10_000;
/** The whole response, status line and headers included, is read up to this many bytes. */
export const maxEgressResponseBytes = 16 * 1024;

export type EgressFailure = EgressRefusal | 'timeout' | 'connection_failed' | 'response_too_large' | 'redirect' | 'http_status';

export interface EgressPostOptions {
  headers: Record<string, string>;
  body: string;
  policy: EgressPolicy;
  timeoutMs?: number;
}

export interface EgressPostResult {
  /** The HTTP status received, or null when none was. */
  statusCode: number | null;
  /** Null when the receiver answered 2xx in time; else why the attempt failed. */
  failure: EgressFailure | null;
}

export async function egressPost(url: string, options: EgressPostOptions): Promise<EgressPostResult> {
  const timeoutMs = options.timeoutMs ?? egressTimeoutMs;
  const deadline = performance.now() + timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const vetted = await Promise.race([vetUrl(url, options.policy), expired]);
    if (vetted === 'timeout') return { statusCode: null, failure: 'timeout' };
    if (!vetted.ok) return { statusCode: null, failure: vetted.refusal };
    return await send(vetted.target, options, deadline - performance.now());
  } finally {
    clearTimeout(timer);
  }
}

function send(target: VettedTarget, options: EgressPostOptions, remainingMs: number) {
  return new Promise<EgressPostResult>((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    let verdict: EgressFailure | null = 'timeout';
    const finish = (failure: EgressFailure | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ statusCode, failure });
    };
    const addresses: LookupAddress[] = target.addresses.map((address) => ({ address, family: isIP(address) }));
    const req = request({
      protocol: 'https:',
      host: target.hostname,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      agent: false,
      maxHeaderSize: maxEgressResponseBytes,
      // only the vetted addresses are ever connected to
      lookup: (_hostname, lookupOptions, callback) => {
        const first = addresses[0] as LookupAddress;
        if ((lookupOptions as { all?: boolean }).all) (callback as (error: null, list: LookupAddress[]) => void)(null, addresses);
        else (callback as (error: null, address: string, family: number) => void)(null, first.address, first.family);
      },
    });
    // an answer whose status arrived in time counts even if the rest of it is slow
    const timer = setTimeout(() => finish(verdict), Math.max(0, remainingMs));
    req.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'HPE_HEADER_OVERFLOW' ? 'response_too_large' : 'connection_failed'));
    req.on('response', (response) => {
      statusCode = response.statusCode ?? null;
      const status = statusCode ?? 0;
      verdict = status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? 'redirect' : 'http_status';
      // only the status counts; the rest of the answer is read up to the limit, then dropped
      let size = 16 + response.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 0);
      if (size > maxEgressResponseBytes) return finish(verdict);
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size >= maxEgressResponseBytes) finish(verdict);
      });
      response.on('end', () => finish(verdict));
      response.on('error', () => finish(verdict));
      response.on('aborted', () => finish(verdict));
    });
    req.end(options.body);
  });
}
