// The OpenAI-compatible provider against a local server through the egress policy: what it
// sends, which answers it retries and how long it waits, the structured-output fallback, and
// the policy's refusals. Also the reply protocol's parser.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@svc/core';
import { AiProviderError } from '../src/ports/ai-provider.ts';
import { type AiSettings, parseAllowlist } from '../src/shared/config.ts';
import { openAiCompatibleProvider } from '../src/ai/openai-compatible-provider.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDraftReply } from '../src/template-builds/draft-reply.ts';

type Answer = { status: number; body?: string; headers?: Record<string, string> };

describe('openAiCompatibleProvider', () => {
  let server: Server;
  let port: number;
  let answers: Answer[] = [];
  let seen: { headers: Record<string, unknown>; body: any }[] = [];

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      seen.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const answer = answers.shift() ?? { status: 500 };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const reply = (content: string): Answer => ({ status: 200, body: JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }) });
  function provider(overrides: Partial<AiSettings> = {}, allowlisted = true) {
    const waits: number[] = [];
    answers = [];
    seen = [];
    const settings: AiSettings = { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: 'k', timeoutMs: 2000, maxAttempts: 3, vision: false, maxReviews: 1, ...overrides };
    const instance = openAiCompatibleProvider({
      settings,
      policy: { allowlist: allowlisted ? parseAllowlist(`127.0.0.1:${port}`) : [] },
      logger: silentLogger,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    return { instance, waits };
  }
  const request = { messages: [{ role: 'user' as const, content: 'hi' }], jsonSchema: { name: 'x', schema: { type: 'object' } } };

  it('sends the model, the key and the schema, and answers the assistant text', async () => {
    const { instance } = provider();
    answers = [reply('hello')];
    await expect(instance.complete(request)).resolves.toBe('hello');
    expect(seen[0]?.headers.authorization).toBe('Bearer k');
    expect(seen[0]?.body).toMatchObject({ model: 'm', messages: request.messages, response_format: { type: 'json_schema', json_schema: { name: 'x' } } });
  });

  it('retries 429 after Retry-After and 5xx with backoff, then gives up', async () => {
    const { instance, waits } = provider();
    answers = [{ status: 429, headers: { 'retry-after': '2' } }, { status: 502 }, reply('ok')];
    await expect(instance.complete(request)).resolves.toBe('ok');
    expect(waits).toEqual([2000, 3000]);
    answers = [{ status: 500 }, { status: 500 }, { status: 500 }];
    await expect(instance.complete(request)).rejects.toMatchObject({ code: 'provider_http_error' });
  });

  it('does not retry a 4xx, and asks again without structured output when the server refuses it', async () => {
    const { instance } = provider();
    answers = [{ status: 400 }, reply('plain')];
    await expect(instance.complete(request)).resolves.toBe('plain');
    expect(seen[1]?.body.response_format).toBeUndefined();
    answers = [{ status: 401 }];
    await expect(instance.complete(request)).rejects.toMatchObject({ code: 'provider_http_error' });
    expect(seen).toHaveLength(3);
  });

  it('answers provider_reply_invalid for a body that is not a chat completion', async () => {
    const { instance } = provider();
    answers = [{ status: 200, body: '{"choices":[]}' }];
    await expect(instance.complete(request)).rejects.toBeInstanceOf(AiProviderError);
  });

  it('refuses plain http and loopback hosts that are not allowlisted', async () => {
    const { instance } = provider({}, false);
    await expect(instance.complete(request)).rejects.toMatchObject({ code: 'provider_refused_by_egress' });
    const https = provider({ baseUrl: 'https://127.0.0.1/v1' }, false);
    await expect(https.instance.complete(request)).rejects.toMatchObject({ code: 'provider_refused_by_egress' });
    expect(seen).toHaveLength(0);
  });
});

describe('parseDraftReply', () => {
  it('reads a bare object or the first fenced json block, and names what is wrong otherwise', () => {
    const draft = { source: '<p>x</p>', sample_data: { a: 1 }, schema: null, output: { type: 'pdf' } };
    expect(parseDraftReply(JSON.stringify(draft))).toMatchObject({ ok: true, output: { type: 'pdf' } });
    expect(parseDraftReply(`Here:\n\`\`\`json\n${JSON.stringify(draft)}\n\`\`\``)).toMatchObject({ ok: true, draft: { source: '<p>x</p>' } });
    expect(parseDraftReply('no')).toEqual({ ok: false, code: 'reply_not_json' });
    expect(parseDraftReply('{"source": 1}')).toEqual({ ok: false, code: 'reply_shape_invalid' });
    expect(parseDraftReply(JSON.stringify({ ...draft, output: { type: 'gif' } }))).toMatchObject({ ok: true, output: null });
  });

  it('asks for a repair of a draft holding U+0000 or a lone surrogate, which could not be stored whole', () => {
    const draft = { source: '<p>{{ a }}</p>', sample_data: { a: 'x' }, schema: null };
    expect(parseDraftReply(JSON.stringify({ ...draft, source: '<p>\u0000</p>' }))).toEqual({ ok: false, code: 'reply_text_unsafe' });
    expect(parseDraftReply(JSON.stringify({ ...draft, sample_data: { a: '\ud800' } }))).toEqual({ ok: false, code: 'reply_text_unsafe' });
    expect(parseDraftReply(JSON.stringify({ ...draft, sample_data: { a: '😀' } }))).toMatchObject({ ok: true, draft: { sample_data: { a: '😀' } } });
  });
});
