// The saved-template cell: the invoice starter saved as a template version and rendered by
// template_id with its sample data, against the same HTML (evaluated once, by a preview) sent
// raw. Both at concurrency 2, in turns; the web process's CPU per render of each (its sandbox
// threads, where templates are evaluated, included) and their difference. Then 1,000 rows of
// the saved template as batches (the contract's largest, 200 rows, five of them) against 1,000
// raw-HTML single renders (half before the batches, half after).
import { findStarter } from '@svc/core';
import { formatParts, perRender } from './processes.ts';
import { measure, measureInTurns } from './stats.ts';

/** Renders per mode (BENCH_SAVED_RUNS, default 300): the web's CPU is read in 10 ms ticks. */
const runs = Number(process.env.BENCH_SAVED_RUNS ?? 300);
const turn = Number(process.env.BENCH_TURN ?? 15);
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
/** Rows of the batch side (BENCH_SAVED_ROWS, default 1,000), sent as batches of at most 200. */
const batchRows = Number(process.env.BENCH_SAVED_ROWS ?? 1000);
const rowsPerBatch = 200;
const concurrency = 2;
/**
 * BENCH_SAVED_CODE=0 renders the sample without its sepa_transfer, so the invoice draws no EPC
 * QR code: drawing one costs some 15 ms of the sandbox thread's CPU, a cost of the document
 * that a raw HTML render of the same bytes never pays, and one the figures predate.
 */
const drawCode = process.env.BENCH_SAVED_CODE !== '0';

/** The targets: a saved template's web CPU per render at most raw's plus this, and batch/singles at least this. */
export const savedTargets = { webExtraMs: 2, batchOverSingles: 0.9 };

export interface SavedResult {
  webSavedMs: number;
  webRawMs: number;
  batchOverSingles: number;
}

async function call(baseUrl: string, apiKey: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, retryAfter: Number(response.headers.get('retry-after') ?? 1), body: (await response.json()) as any };
}

/** Sends a batch, waiting out a 429 (the account's evaluation budget) as a client would; resolves with its id once admitted. */
async function sendBatch(baseUrl: string, apiKey: string, templateId: string, rows: unknown[], label: string): Promise<string> {
  for (;;) {
    const created = await call(baseUrl, apiKey, '/v1/batches', { template_id: templateId, format: 'pdf', rows }, { 'idempotency-key': label });
    if (created.status === 201) return created.body.id;
    if (created.status !== 429) throw new Error(`batch refused: ${created.status} ${JSON.stringify(created.body)}`);
    await new Promise((resolve) => setTimeout(resolve, created.retryAfter * 1000));
  }
}

async function batchDone(baseUrl: string, apiKey: string, id: string): Promise<boolean> {
  const read = await call(baseUrl, apiKey, `/v1/batches/${id}`);
  if (read.body.state === 'complete') return true;
  if (['partial', 'failed', 'cancelled'].includes(read.body.state)) throw new Error(`batch ended ${read.body.state}`);
  return false;
}

/** `cpu`: the CPU each part of the service has spent so far (ms). Uses the account of `apiKeys`. */
export async function savedCell(baseUrl: string, apiKeys: string[], cpu: () => Record<string, number>): Promise<SavedResult> {
  const starter = findStarter('invoice')!;
  const { source, schema } = starter;
  const { sepa_transfer: _transfer, ...withoutCode } = starter.sampleData;
  const sampleData = drawCode ? starter.sampleData : withoutCode;
  const template = await call(baseUrl, apiKeys[0]!, '/v1/templates', { name: 'Invoice starter', source, schema });
  if (template.status !== 201) throw new Error(`template refused: ${template.status} ${JSON.stringify(template.body)}`);
  const templateId: string = template.body.id;
  const preview = await call(baseUrl, apiKeys[0]!, '/v1/templates/preview', { source, data: sampleData, schema });
  if (preview.status !== 200) throw new Error(`preview refused: ${preview.status}`);
  const html: string = preview.body.html;

  // batches take the first key; single renders the others, as a customer would keep a key for its batches
  let next = 0;
  const render = (body: Record<string, unknown>) => async () => {
    const apiKey = apiKeys[1 + (next++ % (apiKeys.length - 1))]!;
    const job = await call(baseUrl, apiKey, '/v1/pdf', body);
    if (job.status !== 200 || job.body.status !== 'succeeded') throw new Error(`render failed: ${job.status} ${JSON.stringify(job.body)}`);
  };
  const saved = render({ template_id: templateId, data: sampleData });
  const raw = render({ html });
  for (let index = 0; index < warmup; index++) {
    await saved();
    await raw();
  }
  const [savedRun, rawRun] = await measureInTurns(
    [
      { render: saved, sample: cpu },
      { render: raw, sample: cpu },
    ],
    runs,
    concurrency,
    turn,
  );
  const savedCpu = perRender({}, savedRun!.spent, runs);
  const rawCpu = perRender({}, rawRun!.spent, runs);
  const webSavedMs = savedCpu.web ?? Number.NaN;
  const webRawMs = rawCpu.web ?? Number.NaN;

  // 1,000 rows as batches sent one after another, against 1,000 raw singles in two halves
  // around them, so that a change of the machine's speed moves both sides alike
  const before = await measure(raw, batchRows / 2, concurrency);
  const cpuBefore = cpu();
  const started = performance.now();
  const ids: string[] = [];
  for (let first = 0; first < batchRows; first += rowsPerBatch) {
    const rows = Array.from({ length: Math.min(rowsPerBatch, batchRows - first) }, (_, index) => ({
      ...sampleData,
      invoice: { ...(sampleData.invoice as object), number: `INV-2026-${String(first + index + 1).padStart(4, '0')}` },
    }));
    ids.push(await sendBatch(baseUrl, apiKeys[0]!, templateId, rows, `bench-saved-${Date.now()}-${first}`));
  }
  for (const id of ids) while (!(await batchDone(baseUrl, apiKeys[0]!, id))) await new Promise((resolve) => setTimeout(resolve, 50));
  const batchThroughput = batchRows / ((performance.now() - started) / 1000);
  const batchCpu = perRender(cpuBefore, cpu(), batchRows);
  const after = await measure(raw, batchRows / 2, concurrency);
  const singlesThroughput = batchRows / (batchRows / 2 / before.throughput + batchRows / 2 / after.throughput);
  const batchOverSingles = batchThroughput / singlesThroughput;

  console.log(
    `saved template (invoice starter, PDF${drawCode ? ', with its EPC QR code' : ', no QR code'}) against its HTML raw, conc ${concurrency}, ${runs} renders each in turns of ${turn}: ` +
      `saved ${savedRun!.throughput.toFixed(2)} r/s p50 ${savedRun!.p50.toFixed(1)} ms; raw ${rawRun!.throughput.toFixed(2)} r/s p50 ${rawRun!.p50.toFixed(1)} ms`,
  );
  console.log(`  CPU per render (ms): saved ${formatParts(savedCpu, 1)}\n                      raw   ${formatParts(rawCpu, 1)}`);
  console.log(
    `  web CPU per render: saved ${webSavedMs.toFixed(1)} ms, raw ${webRawMs.toFixed(1)} ms; difference ${(webSavedMs - webRawMs).toFixed(1)} ms ` +
      `(target <= +${savedTargets.webExtraMs} ms); ratio ${(webSavedMs / webRawMs).toFixed(2)}`,
  );
  console.log(
    `  ${batchRows} rows in batches of ${rowsPerBatch} ${batchThroughput.toFixed(2)} r/s; ${batchRows} raw singles at conc ${concurrency} ` +
      `(half before, half after) ${singlesThroughput.toFixed(2)} r/s; batch/singles ${batchOverSingles.toFixed(2)} (target >= ${savedTargets.batchOverSingles})`,
  );
  console.log(`  CPU per batch row (ms; the polling of the batches' state every 50 ms included): ${formatParts(batchCpu, 1)}`);
  return { webSavedMs, webRawMs, batchOverSingles };
}
