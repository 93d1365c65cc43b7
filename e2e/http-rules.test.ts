import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, expectError, newAccount, uuidPattern } from './support/api.ts';
import { headWithHeaders, rawRequest } from './support/raw-http.ts';

const host = () => new URL(baseUrl()).host;

function expectRawEnvelope(response: Awaited<ReturnType<typeof rawRequest>>, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = JSON.parse(response.body);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toMatch(uuidPattern);
  expect(response.headers['x-request-id']).toBe(body.error.request_id);
}

describe('request id', () => {
  it('is a fresh UUID on every response, success or error, and ignores one sent by the client', async () => {
    const account = await newAccount();
    const ok = await api('/v1/keys', { key: account.apiKey, headers: { 'x-request-id': 'client-chosen' } });
    const missing = await api('/v1/keys');
    const first = ok.headers.get('x-request-id');
    expect(first).toMatch(uuidPattern);
    expect(first).not.toBe('client-chosen');
    expect(missing.headers.get('x-request-id')).toMatch(uuidPattern);
    expect(missing.headers.get('x-request-id')).not.toBe(first);
    expect(missing.body.error.request_id).toBe(missing.headers.get('x-request-id'));
  });
});

describe('routes and methods', () => {
  it('answers 404 not_found with the envelope for unknown routes', async () => {
    for (const path of ['/v1/nothing', '/v1/keys/key_x/extra', '/v1', '/v1/']) {
      expectError(await api(path), 404, 'not_found');
    }
  });

  it('answers 405 method_not_allowed with Allow for a known route and the wrong method', async () => {
    const account = await newAccount();
    const put = await api('/v1/keys', { method: 'PUT', key: account.apiKey, body: {} });
    expectError(put, 405, 'method_not_allowed');
    expect(put.headers.get('allow')).toBe('POST, GET');
    expectError(await api(`/v1/keys/key_${'a'.repeat(32)}`, { method: 'GET', key: account.apiKey }), 405, 'method_not_allowed');
    expectError(await api('/v1/openapi.json', { method: 'POST', body: {} }), 405, 'method_not_allowed');
  });
});

describe('header limits', () => {
  it('accepts 64 headers and refuses 65 with 431 request_headers_too_large', async () => {
    const ok = await rawRequest(baseUrl(), headWithHeaders('/v1/openapi.json', host(), 64));
    expect(ok.status).toBe(200);
    const refused = await rawRequest(baseUrl(), headWithHeaders('/v1/openapi.json', host(), 65));
    expectRawEnvelope(refused, 431, 'request_headers_too_large');
  });

  it('refuses more than 32 KiB of header names and values, also on unknown routes', async () => {
    const under = await rawRequest(baseUrl(), headWithHeaders('/v1/openapi.json', host(), 10, 3000));
    expect(under.status).toBe(200);
    // Host, Connection and 11 fillers of 3,000 bytes: just over 32 KiB
    const over = await rawRequest(baseUrl(), headWithHeaders('/v1/openapi.json', host(), 13, 3000));
    expectRawEnvelope(over, 431, 'request_headers_too_large');
    expectRawEnvelope(await rawRequest(baseUrl(), headWithHeaders('/v1/nothing', host(), 13, 3000)), 431, 'request_headers_too_large');
  });

  it("answers with the envelope, not Node's bare 431, for one huge header and for megabytes of headers", async () => {
    expectRawEnvelope(await rawRequest(baseUrl(), headWithHeaders('/v1/openapi.json', host(), 3, 40_000)), 431, 'request_headers_too_large');
    expectRawEnvelope(await rawRequest(baseUrl(), headWithHeaders('/v1/openapi.json', host(), 4, 700_000)), 431, 'request_headers_too_large');
  });
});

describe('connections', () => {
  /** One request over the agent; answers status, body and headers. */
  function send(agent: Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer) {
    return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = request(new URL(path, baseUrl()), { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('reads the rest of a body it refused unread, so the next request on the connection is answered', async () => {
    const account = await newAccount();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const auth = { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' };
      const body = Buffer.from(JSON.stringify({ source: 'x'.repeat(5 * 1024 * 1024), data: {} }));
      const refused = await send(agent, 'POST', '/v1/templates/preview', auth, body);
      expect(refused.status).toBe(413);
      const next = await send(agent, 'GET', '/v1/keys', { authorization: auth.authorization });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('answers HEAD on a GET route with its status and headers alone', async () => {
    const account = await newAccount();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const auth = { authorization: `Bearer ${account.apiKey}` };
      const head = await send(agent, 'HEAD', '/v1/keys', auth);
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-type']).toBe('application/json');
      const next = await send(agent, 'GET', '/v1/keys', auth);
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body).data.length).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});
