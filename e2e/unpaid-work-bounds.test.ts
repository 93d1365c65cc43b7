// Work done for an account before any credit is reserved is bounded by the account's balance
// and budgets before it starts. An image pack lays its sizes out in the worker's browser before
// its members are admitted: the render creation token and a balance for every size come first,
// so an account without credits gets no layout at all. A template save checks the syntax of
// every saved size by evaluating it: each size's evaluation draws on the account's evaluation
// budget first, so a flood of saves with twenty heavy sizes evaluates no size once the budget
// is spent. A service of its own (web and worker), so its counters move for this file only.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/global-setup.ts';
import { type Scrape, scrape, total } from './support/metrics.ts';
import { until } from './support/until.ts';
import { startWebhookEnv, type WebhookEnv } from './support/webhook-env.ts';

const token = 'unpaid-work-token';
let env: WebhookEnv;
let workerHealthUrl: string;

beforeAll(async () => {
  const healthPort = await freePort();
  workerHealthUrl = `http://127.0.0.1:${healthPort}`;
  env = await startWebhookEnv({
    allowlist: '',
    env: { SVC_METRICS_TOKEN: token, SVC_WORKER_HEALTH_PORT: String(healthPort), SVC_WORKER_HEALTH_HOST: '127.0.0.1' },
  });
  await until(async () => (await fetch(`${workerHealthUrl}/readyz`)).status === 200, 60_000);
}, 180_000);

afterAll(async () => {
  await env?.stop();
});

const scrapeWeb = () => scrape(`${env.baseUrl}/metrics`, token);
const scrapeWorker = () => scrape(`${workerHealthUrl}/metrics`, token);
const moved = (before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels);

const canvas =
  '<meta name="svc-canvas" content="800x400"><style>body{margin:0}</style><div style="position:relative;width:800px;height:400px;background:rgb(0,0,255)">' +
  '<div style="position:absolute;left:40px;top:40px;width:400px;height:80px;font-size:32px;color:white">{{ title }}</div></div>';

async function newTemplate(apiKey: string, body: Record<string, unknown>): Promise<string> {
  const created = await env.call('/v1/templates', { method: 'POST', key: apiKey, body });
  expect(created.status, created.text.slice(0, 300)).toBe(201);
  return created.body.id;
}

const createPack = (apiKey: string, templateId: string, sizes: string[]) =>
  env.call('/v1/image-packs', { method: 'POST', key: apiKey, body: { template_id: templateId, format: 'png', sizes, data: { title: 'Pack' } }, headers: { 'idempotency-key': randomUUID() } });

/** Runs `loops` loops of `call` for `ms`, collecting what each answered. */
async function flood<T>(loops: number, ms: number, call: () => Promise<T>): Promise<T[]> {
  const answers: T[] = [];
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (Date.now() < until) answers.push(await call());
    }),
  );
  return answers;
}

describe('image packs', () => {
  // twenty custom sizes, each adapted from the canvas
  const twenty = Array.from({ length: 20 }, (_, index) => `${640 + index * 10}x400`);

  it('lay nothing out for an account whose balance could not pay for every size, and still adapt a paid pack', async () => {
    const broke = await env.newAccount({ plan: 'free', credits: 0 });
    // a plan without overage: what it holds is all it can pay
    const short = await env.newAccount({ plan: 'pack', credits: 3 });
    const paying = await env.newAccount({ plan: 'starter', credits: 3 });
    const brokeTemplate = await newTemplate(broke.apiKey, { source: canvas, input_mode: 'blank' });
    const shortTemplate = await newTemplate(short.apiKey, { source: canvas, input_mode: 'blank' });
    const payingTemplate = await newTemplate(paying.apiKey, { source: canvas, input_mode: 'blank' });
    const before = await scrapeWorker();

    // a zero-credit account floods packs of twenty sizes to adapt for ten seconds
    const answers = await flood(8, 10_000, () => createPack(broke.apiKey, brokeTemplate, twenty));
    expect(answers.length).toBeGreaterThan(8);
    const codes = new Set(answers.map((answer) => `${answer.status} ${answer.body?.error?.code}`));
    expect([...codes].every((code) => code === '402 insufficient_credits' || code === '429 rate_limited'), [...codes].join(', ')).toBe(true);
    expect(codes.has('402 insufficient_credits')).toBe(true);
    // three credits do not pay for twenty sizes
    const refused = await createPack(short.apiKey, shortTemplate, twenty);
    expect([refused.status, refused.body.error?.code]).toEqual([402, 'insufficient_credits']);

    const after = await scrapeWorker();
    expect(moved(before, after, 'svc_adapt_sizes_total')).toBe(0);
    for (const account of [broke, short]) {
      expect(await env.database.db.renderGroup.count({ where: { accountId: account.accountId } })).toBe(0);
      expect(await env.database.db.renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
      expect(await env.database.db.creditLedgerEntry.count({ where: { accountId: account.accountId, kind: { not: 'grant' } } })).toBe(0);
    }

    // a pack the balance pays for is adapted and rendered, one credit a size
    const sizes = ['instagram-square', 'story', '640x360'];
    const created = await createPack(paying.apiKey, payingTemplate, sizes);
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    const pack = await until(async () => {
      const read = await env.call(`/v1/image-packs/${created.body.id}`, { key: paying.apiKey });
      return read.body.state === 'complete' ? read.body : null;
    }, 120_000);
    expect(pack.members.map((member: any) => member.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(moved(after, await scrapeWorker(), 'svc_adapt_sizes_total', { outcome: 'laid_out' })).toBe(3);
    const balance = await env.database.db.creditBalance.findMany({ where: { accountId: paying.accountId } });
    expect(balance.reduce((sum, bucket) => sum + bucket.balance, 0)).toBe(0);
  }, 240_000);
});

/** Runs to the sandbox's work limit (about half a second of evaluation) and fails there. */
const burner = '{% for i in range(100000) %}{% for j in range(100) %}{% endfor %}{% endfor %}';
const sized = (index: number, source: string) => ({ id: `s${index}`, name: `Size ${index}`, width: 800, height: 400, status: 'edited', source });
const heavySize = (index: number) => sized(index, `<meta name="svc-canvas" content="800x400">${burner}`);
const lightSize = (index: number) => sized(index, `<meta name="svc-canvas" content="800x400"><p>{{ title }} ${index}</p>`);

describe('template saves', () => {
  it("evaluate each saved size within the account's evaluation budget, and none once it is spent", async () => {
    const account = await env.newAccount({ plan: 'free', credits: 0 });
    const before = await scrapeWeb();
    // with the budget there, the version and each of its sizes are checked
    await newTemplate(account.apiKey, { source: canvas, input_mode: 'blank', sizes: [1, 2, 3].map(lightSize) });
    const checked = await scrapeWeb();
    expect(moved(before, checked, 'svc_template_evaluation_seconds_count')).toBe(4);
    const broken = await env.call('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: canvas, input_mode: 'blank', sizes: [sized(1, '<meta name="svc-canvas" content="800x400">{% if %}')] } });
    expect([broken.status, broken.body.error?.code, broken.body.error?.details?.[0]?.field]).toEqual([400, 'template_syntax_error', 'sizes.0.source']);

    // the budget spent to its floor (five seconds of debt, ten seconds to earn back what one
    // evaluation takes): a flood of saves with twenty heavy sizes each evaluates the version's own
    // source once per save and no size at all
    await env.database.db.$executeRaw`
      INSERT INTO rate_limit_buckets (key, tokens, updated_at) VALUES (${`template_evaluation:${account.accountId}`}, -5, now())
      ON CONFLICT (key) DO UPDATE SET tokens = -5, updated_at = now()`;
    const spent = await scrapeWeb();
    const sizes = Array.from({ length: 20 }, (_, index) => heavySize(index + 1));
    const source = '<meta name="svc-canvas" content="800x400"><div data-svc-page="main">A fixed page</div>';
    const answers = await flood(4, 4_000, () => env.call('/v1/templates', { method: 'POST', key: account.apiKey, body: { source, input_mode: 'blank', sizes } }));
    const flooded = await scrapeWeb();
    expect(answers.map((answer) => answer.status).every((status) => status === 201)).toBe(true);
    expect(moved(spent, flooded, 'svc_template_evaluation_seconds_count')).toBe(answers.length);
    // the version's own source evaluates without error, a heavy size only with one (its work limit)
    expect(moved(spent, flooded, 'svc_template_evaluation_seconds_count', { outcome: 'error' })).toBe(0);
    expect(moved(spent, flooded, 'svc_template_evaluation_refusals_total', { reason: 'evaluation_budget' })).toBeGreaterThanOrEqual(answers.length);
    // the sizes are saved as sent; a size not checked at save is evaluated by its renders
    const saved = await env.call(`/v1/templates/${answers[0]!.body.id}`, { key: account.apiKey });
    expect(saved.body.sizes).toHaveLength(20);
    expect(await env.database.db.creditLedgerEntry.count({ where: { accountId: account.accountId } })).toBe(0);
  }, 180_000);
});

describe('unbilled renders', () => {
  const adapt = (apiKey: string) => env.call('/v1/templates/adapt', { method: 'POST', key: apiKey, body: { source: canvas, sizes: [{ width: 400, height: 200 }] } });
  const tokensOf = async (bucket: string) =>
    (await env.database.db.$queryRaw<{ tokens: number }[]>`SELECT tokens::float8 AS tokens FROM rate_limit_buckets WHERE key = ${bucket}`)[0]?.tokens ?? null;

  it("stop for the day once the account's two thousand are spent, whatever the minute's budget holds, and a refusal takes nothing", async () => {
    const account = await env.newAccount({ plan: 'free', credits: 10 });
    const daily = `unbilled_render_daily:${account.accountId}`;
    const minute = `unbilled_render:${account.accountId}`;
    const first = await adapt(account.apiKey);
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    expect(await tokensOf(daily)).toBeCloseTo(1_999, 0);

    // the day's renders spent: the minute's budget still holds seven, yet a layout is refused
    await env.database.db.$executeRaw`UPDATE rate_limit_buckets SET tokens = 0.5, updated_at = now() WHERE key = ${daily}`;
    const minuteBefore = await tokensOf(minute);
    const before = await scrapeWorker();
    const refused = await adapt(account.apiKey);
    expect([refused.status, refused.body.error?.code]).toEqual([429, 'rate_limited']);
    // the next of the day's renders comes back in about 22 s (one every 43.2 s, half of one held)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(20);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(moved(before, await scrapeWorker(), 'svc_adapt_sizes_total')).toBe(0);
    // the minute's token it took is given back (give or take what refilled meanwhile)
    expect(await tokensOf(minute)).toBeGreaterThanOrEqual(minuteBefore!);
  }, 120_000);
});
