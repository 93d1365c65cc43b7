// The soak's workload: accounts set up as a customer's would be (a saved template, a brand kit,
// a webhook destination, a template with an AI chat), and one function per kind of operation.
// An operation resolves when it is done and throws a Failure carrying the code that ended it.
import { randomUUID } from 'node:crypto';
import { draftReply, type ScriptedModel } from '../../e2e/support/scripted-model.ts';
import { cardHtml, invoiceHtml } from '../fixtures.ts';

export class Failure extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

export interface SoakAccount {
  index: number;
  apiKey: string;
  templateId: string;
  kitId: string;
  chatTemplateId: string;
}

/**
 * The brand kit name of every account: the scripted model answers requests that carry it, and
 * AI operations run one at a time, so each can script its own replies before it starts.
 */
const modelMarker = 'Soak kit';
const templateSource = invoiceHtml.replace('Example Ltd', '{{ customer }}');
const batchRows = 5;
const pollMs = 250;
const settleTimeoutMs = 180_000;

/** A draft the scripted model returns for generation and for every review (unchanged). */
const draft = draftReply({
  source: '<!doctype html><html><body style="background: {{ brand.colours.primary }}"><h1>{{ title }}</h1><p>{{ total }}</p></body></html>',
  sample_data: { title: 'Invoice 42', total: '120.00' },
  schema: { type: 'object', required: ['title'] },
});

export interface Client {
  baseUrl: string;
  model: ScriptedModel;
}

async function call(client: Client, apiKey: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  let response: Response;
  try {
    response = await fetch(`${client.baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Failure(`connection_${(error as { cause?: { code?: string } }).cause?.code ?? 'failed'}`);
  }
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (response.status >= 400) throw new Failure(parsed?.error?.code ?? `http_${response.status}`);
  return parsed;
}

async function settle<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + settleTimeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Failure('soak_settle_timeout');
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

export async function setUpAccount(client: Client, index: number, apiKey: string, receiverPort: number): Promise<SoakAccount> {
  const template = await call(client, apiKey, '/v1/templates', { name: 'Invoice', source: templateSource });
  const kit = await call(client, apiKey, '/v1/brand-kits', { name: modelMarker, colours: ['#0a0b0c'], tone_guidance: 'Calm' });
  const chat = await call(client, apiKey, '/v1/templates', { name: 'Chat', source: '<!doctype html><p id="hero">{{ brand.name }}</p>' });
  await call(client, apiKey, '/v1/webhooks', { url: `https://localhost:${receiverPort}/hooks/${index}` });
  return { index, apiKey, templateId: template.id, kitId: kit.id, chatTemplateId: chat.id };
}

const customer = (account: SoakAccount) => ({ customer: `Customer ${account.index}` });

async function render(client: Client, account: SoakAccount, output: 'pdf' | 'image', body: Record<string, unknown>) {
  const job = await call(client, account.apiKey, `/v1/${output}`, body);
  if (job.status !== 'succeeded') throw new Failure(`job_${job.error?.code ?? job.status}`);
}

async function batch(client: Client, account: SoakAccount) {
  const rows = Array.from({ length: batchRows }, (_, row) => ({ customer: `Row ${row + 1}` }));
  const created = await call(client, account.apiKey, '/v1/batches', { template_id: account.templateId, format: 'pdf', rows }, { 'idempotency-key': randomUUID() });
  const ended = await settle(
    () => call(client, account.apiKey, `/v1/batches/${created.id}`),
    (read) => !['queued', 'running'].includes(read.state),
  );
  if (ended.state !== 'complete') throw new Failure(`batch_${ended.state}`);
}

const messageEnded = (message: { state: string }) => ['succeeded', 'failed', 'cancelled'].includes(message.state);

function expectSucceeded(message: { state: string; failure_code: string | null }) {
  if (message.state !== 'succeeded') throw new Failure(`message_${message.failure_code ?? message.state}`);
}

async function aiBuild(client: Client, account: SoakAccount) {
  client.model.script(modelMarker, [{ reply: draft }, { reply: draft }, { reply: draft }]);
  const input = { type: 'prompt', prompt: 'A simple invoice' };
  const created = await call(client, account.apiKey, '/v1/template-builds', { brand_kit_id: account.kitId, input }, { 'idempotency-key': randomUUID() });
  const build = await settle(
    () => call(client, account.apiKey, `/v1/template-builds/${created.id}`),
    (read) => messageEnded(read.message),
  );
  expectSucceeded(build.message);
}

async function aiChat(client: Client, account: SoakAccount) {
  client.model.script(modelMarker, [{ reply: draft }, { reply: draft }, { reply: draft }]);
  const path = `/v1/templates/${account.chatTemplateId}/messages`;
  const body = { input: { type: 'prompt', prompt: 'Make it an invoice' }, brand_kit_id: account.kitId };
  const accepted = await call(client, account.apiKey, path, body, { 'idempotency-key': randomUUID() });
  const read = await settle(
    () => call(client, account.apiKey, `${path}/${accepted.message.id}`),
    (chat) => messageEnded(chat.message),
  );
  expectSucceeded(read.message);
}

export type Operation = (client: Client, account: SoakAccount) => Promise<void>;

export interface Kind {
  name: string;
  /** Relative share of the operations the soak starts. */
  weight: number;
  /** AI work: one at a time across the soak (the scripted model's replies are per marker). */
  ai?: boolean;
  run: Operation;
}

export const kinds: Kind[] = [
  { name: 'pdf raw', weight: 3, run: (client, account) => render(client, account, 'pdf', { html: invoiceHtml }) },
  { name: 'pdf template', weight: 2, run: (client, account) => render(client, account, 'pdf', { html: templateSource, data: customer(account) }) },
  { name: 'pdf saved', weight: 3, run: (client, account) => render(client, account, 'pdf', { template_id: account.templateId, data: customer(account) }) },
  { name: 'image raw', weight: 2, run: (client, account) => render(client, account, 'image', { html: cardHtml, image: { format: 'png' } }) },
  {
    name: 'image template',
    weight: 1,
    run: (client, account) => render(client, account, 'image', { html: templateSource, data: customer(account), image: { format: 'jpeg', width: 800, height: 600 } }),
  },
  {
    name: 'image saved',
    weight: 2,
    run: (client, account) => render(client, account, 'image', { template_id: account.templateId, data: customer(account), image: { format: 'webp' } }),
  },
  { name: 'preview', weight: 3, run: (client, account) => call(client, account.apiKey, '/v1/templates/preview', { source: templateSource, data: customer(account) }) },
  { name: 'batch', weight: 0.4, run: batch },
  { name: 'ai build', weight: 0.2, ai: true, run: aiBuild },
  { name: 'ai chat', weight: 0.2, ai: true, run: aiChat },
];
