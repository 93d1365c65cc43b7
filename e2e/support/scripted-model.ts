// A scripted OpenAI-compatible model on 127.0.0.1: a real HTTP server speaking
// POST /v1/chat/completions. Each test registers steps under a marker (a brand kit name it
// made up); a request whose body contains the marker gets that script's next step, so tests
// that run at the same time never take each other's replies. Requests are recorded per marker.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ModelStep =
  /** The assistant's text, after an optional delay. */
  | { reply: string; delayMs?: number }
  /** An HTTP error status (with Retry-After seconds when given). */
  | { status: number; retryAfter?: number }
  /** A body that is not a chat completion at all. */
  | { raw: string };

export interface RecordedRequest {
  body: any;
  headers: IncomingMessage['headers'];
  text: string;
}

export interface ScriptedModel {
  /** Base URL as SVC_AI_BASE_URL takes it (…/v1). */
  baseUrl: string;
  /** host:port for SVC_UNSAFE_EGRESS_ALLOWLIST. */
  hostPort: string;
  /** Steps for requests carrying `marker`; once used up, every further request answers 500. */
  script(marker: string, steps: ModelStep[]): void;
  requests(marker: string): RecordedRequest[];
  close(): Promise<void>;
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  const scripts = new Map<string, ModelStep[]>();
  const recorded = new Map<string, RecordedRequest[]>();
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      if (!response.destroyed) response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    };
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return send(404, '{"error":"unknown route"}');
    const marker = [...scripts.keys()].find((candidate) => text.includes(candidate));
    if (!marker) return send(500, '{"error":"unscripted request"}');
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // recorded as text
    }
    recorded.get(marker)?.push({ body, headers: request.headers, text });
    const step = scripts.get(marker)?.shift();
    if (!step) return send(500, '{"error":"script used up"}');
    if ('status' in step) return send(step.status, '{"error":"scripted"}', step.retryAfter === undefined ? {} : { 'retry-after': String(step.retryAfter) });
    if ('raw' in step) return send(200, step.raw);
    if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    send(200, JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: 'scripted', choices: [{ index: 0, message: { role: 'assistant', content: step.reply }, finish_reason: 'stop' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    hostPort: `127.0.0.1:${port}`,
    script(marker, steps) {
      scripts.set(marker, [...steps]);
      recorded.set(marker, []);
    },
    requests: (marker) => recorded.get(marker) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A reply of the protocol: one JSON object of the draft shape, optionally inside a fenced block. */
export function draftReply(draft: { source: string; sample_data?: Record<string, unknown>; schema?: unknown; output?: unknown }, fenced = false): string {
  const json = JSON.stringify({ sample_data: {}, schema: null, output: { type: 'pdf' }, ...draft });
  return fenced ? `Here is the template:\n\`\`\`json\n${json}\n\`\`\`` : json;
}
