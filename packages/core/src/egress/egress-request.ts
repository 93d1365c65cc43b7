// One outgoing request under the egress policy, whatever its method: webhook deliveries, image
// URL previews and the AI provider all go through here. Every hop is vetted (shape, then every
// resolved address), and each connection goes to the vetted addresses themselves, so neither a
// redirect nor a DNS answer that changes (rebinding) can reach a private destination. One
// deadline covers the whole exchange, redirects and body included.
import type { LookupAddress } from 'node:dns';
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { type EgressPolicy, type EgressRefusal, type EgressRules, type VettedTarget, vetUrl } from './outgoing-url-policy.ts';

export type EgressFailure = 'timeout' | 'connection_failed' | 'http_status' | 'redirect' | 'too_many_redirects' | 'response_too_large';

/**
 * What the caller needs of the answer.
 * - body: the body of a 2xx answer, following up to maxRedirects redirects (each target vetted
 *   again; one more is too_many_redirects); any other status fails at once; a body longer than
 *   maxBytes (declared or streamed) is response_too_large.
 * - status: only the status, which counts as soon as it arrives in time, even if the rest of the
 *   answer is slow; a 3xx is the failure `redirect`, never followed; the answer, headers
 *   included, is read up to maxBytes and dropped (headers past it: response_too_large).
 */
export type EgressAnswer = { read: 'body'; maxRedirects: number } | { read: 'status' };

export interface EgressRequestOptions {
  policy: EgressPolicy;
  rules: EgressRules;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Sent with its content-length. */
  body?: string;
  /** The whole exchange, every hop and the body included. */
  timeoutMs: number;
  maxBytes: number;
  answer: EgressAnswer;
}

export type EgressResult =
  /** With `read: 'status'` the body is empty. */
  | { ok: true; status: number; contentType: string | null; bytes: Buffer }
  /** A refusal of the policy (the first URL or a redirect target). */
  | { ok: false; refusal: EgressRefusal }
  /** A failure of the exchange, with the status when one arrived. */
  | { ok: false; failure: EgressFailure; status?: number; retryAfter?: string };

type Hop = { kind: 'redirect'; location: string } | { kind: 'done'; result: EgressResult };

export async function egressRequest(url: string, options: EgressRequestOptions): Promise<EgressResult> {
  const deadline = performance.now() + options.timeoutMs;
  const maxRedirects = options.answer.read === 'body' ? options.answer.maxRedirects : 0;
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
      const hop = await exchange(vetted.target, options, deadline - performance.now());
      if (hop.kind === 'done') return hop.result;
      if (redirects >= maxRedirects) return { ok: false, failure: 'too_many_redirects' };
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

/** How one hop's answer is read: what a late deadline, a request error and the response end in. */
interface AnswerReader {
  expire(): void;
  fail(error: NodeJS.ErrnoException): void;
  read(response: IncomingMessage): void;
}

function exchange(target: VettedTarget, options: EgressRequestOptions, remainingMs: number): Promise<Hop> {
  return new Promise<Hop>((resolve) => {
    let settled = false;
    const finish = (hop: Hop) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(hop);
    };
    const req = pinnedRequest(target, options);
    const reader = options.answer.read === 'body' ? bodyReader(options.maxBytes, finish) : statusReader(options.maxBytes, finish);
    const timer = setTimeout(() => reader.expire(), Math.max(0, remainingMs));
    req.on('error', (error: NodeJS.ErrnoException) => reader.fail(error));
    req.on('response', (response: IncomingMessage) => reader.read(response));
    req.end(options.body);
  });
}

/** The request, connecting only to the vetted addresses, whatever the name resolves to now. */
function pinnedRequest(target: VettedTarget, options: EgressRequestOptions): ClientRequest {
  const addresses: LookupAddress[] = target.addresses.map((address) => ({ address, family: isIP(address) }));
  const request = target.url.protocol === 'http:' ? httpRequest : httpsRequest;
  return request({
    protocol: target.url.protocol,
    host: target.hostname,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    method: options.method,
    headers: { ...options.headers, ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }) },
    agent: false,
    ...(options.answer.read === 'status' ? { maxHeaderSize: options.maxBytes } : {}),
    lookup: (_hostname, lookupOptions, callback) => {
      const first = addresses[0] as LookupAddress;
      if ((lookupOptions as { all?: boolean }).all) (callback as (error: null, list: LookupAddress[]) => void)(null, addresses);
      else (callback as (error: null, address: string, family: number) => void)(null, first.address, first.family);
    },
  });
}

function bodyReader(maxBytes: number, finish: (hop: Hop) => void): AnswerReader {
  const done = (result: EgressResult) => finish({ kind: 'done', result });
  const fail = (failure: EgressFailure) => done({ ok: false, failure });
  return {
    expire: () => fail('timeout'),
    fail: () => fail('connection_failed'),
    read(response) {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location) return finish({ kind: 'redirect', location });
      if (status < 200 || status >= 300) {
        const retryAfter = response.headers['retry-after'];
        return done({ ok: false, failure: 'http_status', status, ...(retryAfter ? { retryAfter } : {}) });
      }
      const declared = Number(response.headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > maxBytes) return fail('response_too_large');
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return fail('response_too_large');
        chunks.push(chunk);
      });
      response.on('end', () => done({ ok: true, status, contentType: response.headers['content-type'] ?? null, bytes: Buffer.concat(chunks) }));
      response.on('error', () => fail('connection_failed'));
      response.on('aborted', () => fail('connection_failed'));
    },
  };
}

function statusReader(maxBytes: number, finish: (hop: Hop) => void): AnswerReader {
  let status: number | undefined;
  let verdict: EgressResult = { ok: false, failure: 'timeout' };
  const done = (result: EgressResult) => finish({ kind: 'done', result });
  return {
    // an answer whose status arrived in time counts even if the rest of it is slow
    expire: () => done(verdict),
    fail: (error) =>
      done({ ok: false, failure: error.code === 'HPE_HEADER_OVERFLOW' ? 'response_too_large' : 'connection_failed', ...(status === undefined ? {} : { status }) }),
    read(response) {
      status = response.statusCode ?? 0;
      verdict =
        status >= 200 && status < 300
          ? { ok: true, status, contentType: response.headers['content-type'] ?? null, bytes: Buffer.alloc(0) }
          : { ok: false, failure: status >= 300 && status < 400 ? 'redirect' : 'http_status', status };
      // only the status counts; the rest of the answer is read up to the limit, then dropped
      let size = 16 + response.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 0);
      if (size > maxBytes) return done(verdict);
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size >= maxBytes) done(verdict);
      });
      response.on('end', () => done(verdict));
      response.on('error', () => done(verdict));
      response.on('aborted', () => done(verdict));
    },
  };
}
