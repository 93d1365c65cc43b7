// The batch cell: a 200-row batch of the one-page invoice against 200 single renders of the same
// saved template at concurrency 2 (half before the batch, half after it), and single renders'
// p50 while a batch drains against idle.
import { invoiceHtml } from './fixtures.ts';
import { addParts, formatParts, perRender } from './processes.ts';
import { measure, percentile } from './stats.ts';

const rows = 200;
const probeRenders = 40;

async function call(baseUrl: string, apiKey: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Sends a 200-row batch and resolves with its id once it is admitted (201). */
async function startBatch(baseUrl: string, apiKey: string, templateId: string, label: string): Promise<string> {
  const data = Array.from({ length: rows }, (_, index) => ({ customer: `Customer ${index + 1}` }));
  const created = await call(baseUrl, apiKey, '/v1/batches', { template_id: templateId, format: 'pdf', rows: data }, { 'idempotency-key': label });
  if (created.status !== 201) throw new Error(`batch refused: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id;
}

async function batchDone(baseUrl: string, apiKey: string, id: string): Promise<boolean> {
  const read = await call(baseUrl, apiKey, `/v1/batches/${id}`);
  if (read.body.state === 'complete') return true;
  if (['partial', 'failed', 'cancelled'].includes(read.body.state)) throw new Error(`batch ended ${read.body.state}`);
  return false;
}

/** The batch cell's two ratios: batch over singles' throughput, and singles' p50 while a batch drains over idle. */
export interface BatchResult {
  batchOverSingles: number;
  drainingOverIdle: number;
}

/** `cpu`: the CPU each part of the service has spent so far (ms), as the table's cells read it. */
export async function batchCell(baseUrl: string, apiKeys: string[], cpu: () => Record<string, number>): Promise<BatchResult> {
  const template = await call(baseUrl, apiKeys[0]!, '/v1/templates', { name: 'Invoice', source: invoiceHtml.replace('Example Ltd', '{{ customer }}') });
  if (template.status !== 201) throw new Error(`template refused: ${template.status}`);
  const templateId: string = template.body.id;
  // single renders use the keys the batch does not, as a customer would keep a key for its batches
  let turn = 0;
  const single = async () => {
    const apiKey = apiKeys[1 + (turn++ % (apiKeys.length - 1))]!;
    const job = await call(baseUrl, apiKey, '/v1/pdf', { template_id: templateId, data: { customer: 'Single' } });
    if (job.status !== 200 || job.body.status !== 'succeeded') throw new Error(`single render failed: ${job.status} ${JSON.stringify(job.body)}`);
  };

  for (let index = 0; index < 5; index++) await single();
  // the singles in two halves, one before the batch and one after it, so that a change of the
  // machine's speed during the cell moves both sides of the ratio alike
  const singlesCpu: Record<string, number> = {};
  let cpuBefore = cpu();
  const before = await measure(single, rows / 2, 2);
  addParts(singlesCpu, perRender(cpuBefore, cpu(), rows));

  cpuBefore = cpu();
  const started = performance.now();
  const batchId = await startBatch(baseUrl, apiKeys[0]!, templateId, `bench-${Date.now()}`);
  while (!(await batchDone(baseUrl, apiKeys[0]!, batchId))) await new Promise((resolve) => setTimeout(resolve, 50));
  const batchThroughput = rows / ((performance.now() - started) / 1000);
  const batchCpu = perRender(cpuBefore, cpu(), rows);

  cpuBefore = cpu();
  const after = await measure(single, rows / 2, 2);
  addParts(singlesCpu, perRender(cpuBefore, cpu(), rows));
  const singles = { throughput: rows / (rows / 2 / before.throughput + rows / 2 / after.throughput) };

  const idle = await measure(single, probeRenders, 1);
  // singles one after another for as long as the second batch drains; only those that ended before it did count
  const draining = await startBatch(baseUrl, apiKeys[0]!, templateId, `bench-drain-${Date.now()}`);
  let drained = false;
  let failed = false;
  const watcher = (async () => {
    while (!failed && !(await batchDone(baseUrl, apiKeys[0]!, draining))) await new Promise((resolve) => setTimeout(resolve, 100));
    drained = true;
  })();
  const latencies: number[] = [];
  try {
    while (!drained) {
      const begin = performance.now();
      await single();
      if (!drained) latencies.push(performance.now() - begin);
    }
  } catch (error) {
    // the watcher stops before the service does
    failed = true;
    await watcher.catch(() => {});
    throw error;
  }
  await watcher;
  latencies.sort((a, b) => a - b);
  const duringP50 = percentile(latencies, 0.5);

  console.log(
    `batch (invoice PDF, ${rows} rows): ${rows} singles at conc 2 (half before the batch, half after) ${singles.throughput.toFixed(2)} r/s; ${rows}-row batch ` +
      `${batchThroughput.toFixed(2)} r/s; batch/singles ${(batchThroughput / singles.throughput).toFixed(2)}`,
  );
  console.log(`  CPU per render (ms; the batch's polling of its state included): singles ${formatParts(singlesCpu, 1)}; batch ${formatParts(batchCpu, 1)}`);
  console.log(
    `singles at conc 1: p50 idle ${idle.p50.toFixed(1)} ms (${probeRenders} renders), while a ${rows}-row batch drains ` +
      `${duringP50.toFixed(1)} ms (${latencies.length} renders); ratio ${(duringP50 / idle.p50).toFixed(2)}`,
  );
  return { batchOverSingles: batchThroughput / singles.throughput, drainingOverIdle: duringP50 / idle.p50 };
}
