// `npm run bench`: renders the same fixtures through raw puppeteer (warm pages, setContent,
// pdf/screenshot) and through the whole service (HTTP, admission, queue, worker, storage),
// at concurrency 1 and 2, and prints throughput, p50 and p95 with the service/raw ratios:
// once for one account (warm sandboxes) and once for a cold mix of more accounts than warm
// sandboxes, round robin. Then the batch, saved-template, paged-media (paged.ts), large-documents
// and report cells, and the memory cell: resident memory of the web and worker
// process trees (browser included) after render 500 and after render 5,000 of one run.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccount, createApiKey, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import { createDb } from '@svc/db';
import { ensureDatabase, migrate, resolveDatabase, withDatabase } from '@svc/db/admin';
import { type Fixture, fixtures } from './fixtures.ts';
import { batchCell, type BatchResult } from './groups.ts';
import { largeCell, type LargeResult } from './large.ts';
import { pagedCell, type PagedResult, pagedTargets } from './paged.ts';
import { rawRenderer } from './raw.ts';
import { reportCell } from './report.ts';
import { savedCell, type SavedResult, savedTargets } from './saved.ts';
import { printRouteJavascript } from './route-javascript.ts';
import { type CpuTime, clusterProcesses, commandLine, machineBusyMs, perRender, processSample, processTree, pssMib, rssMib, treeRss } from './processes.ts';
import { freePort, type Service, serviceRenderer, startService, type Trace } from './service.ts';
import { type Measurement, measure, measureInTurns } from './stats.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 60);
/**
 * Renders per mode in the invoice's cells (BENCH_INVOICE_RUNS, else BENCH_RUNS, else 150): an
 * invoice renders ten to twenty times as fast as the table or the PNG, so 60 of them were about
 * 1.5 s of each mode in four turns, and the invoice's CPU figures, the pipeline's among them,
 * moved by a fifth between runs of the same code.
 */
const invoiceRuns = Number(process.env.BENCH_INVOICE_RUNS ?? process.env.BENCH_RUNS ?? 150);
const runsOf = (fixture: Fixture) => (fixture.name.startsWith('invoice') ? invoiceRuns : runs);
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
/** Renders of one mode in a row before the next mode's turn (measureCell). */
const turnRenders = Number(process.env.BENCH_TURN ?? 15);
const concurrencies = [1, 2];
/** Warm sandboxes the benchmark's worker keeps, and accounts in the cold mix: more than that. */
const warmSandboxes = 4;
const coldAccounts = 12;
const memoryRenders = Number(process.env.BENCH_MEMORY_RENDERS ?? 5000);
const memoryCheckpoint = 500;
/** BENCH_TABLE=0 skips the throughput table and runs only the memory and CPU cell. */
const table = process.env.BENCH_TABLE !== '0';
/** BENCH_FIXTURES=invoice,png limits the table to fixtures whose names start with these words. */
const fixtureFilter = process.env.BENCH_FIXTURES?.split(',').map((word) => word.trim().toLowerCase());
/** BENCH_REPORT_ONLY=1 runs only the report cell (no database, no service); BENCH_REPORT=0 skips it. */
const reportOnly = process.env.BENCH_REPORT_ONLY === '1';
const reportRun = process.env.BENCH_REPORT !== '0';
/** BENCH_SAVED_ONLY=1 runs only the saved-template cell (with the service); BENCH_SAVED=0 skips it. */
const savedOnly = process.env.BENCH_SAVED_ONLY === '1';
const savedRun = process.env.BENCH_SAVED !== '0';
/** BENCH_PAGED_ONLY=1 runs only the paged-media cell (with the service); BENCH_PAGED=0 skips it. */
const pagedOnly = process.env.BENCH_PAGED_ONLY === '1';
const pagedRun = process.env.BENCH_PAGED !== '0';
const tableFixtures = fixtures.filter((fixture) => !fixtureFilter || fixtureFilter.some((word) => fixture.name.toLowerCase().startsWith(word)));

/**
 * Where a service render's time goes, as medians over the traced renders, from the job's own
 * timestamps: request to admission (HTTP, authentication, validation), admission to claim (the
 * admitting transaction, the hand-off to the worker, the claim), claim to finish (sandbox,
 * render, storage), finish to answer (the finishing transaction, the wake-up, the answer).
 */
async function timeSplit(benchUrl: string, traces: Trace[]): Promise<string> {
  const db = createDb({ url: benchUrl, poolSize: 1 });
  try {
    const ids = traces.map((trace) => trace.id);
    const rows = await db.$queryRaw<{ id: string; created: number; started: number; finished: number }[]>`
      SELECT id, extract(epoch FROM created_at)::float8 * 1000 AS created, extract(epoch FROM started_at)::float8 * 1000 AS started,
             extract(epoch FROM finished_at)::float8 * 1000 AS finished FROM render_jobs WHERE id = ANY(${ids})`;
    const byId = new Map(rows.map((row) => [row.id, row]));
    const parts: Record<string, number[]> = { request: [], 'hand-off': [], render: [], answer: [] };
    for (const trace of traces) {
      const job = byId.get(trace.id);
      if (!job) continue;
      parts.request!.push(Number(job.created) - trace.sentAt);
      parts['hand-off']!.push(Number(job.started) - Number(job.created));
      parts.render!.push(Number(job.finished) - Number(job.started));
      parts.answer!.push(trace.answeredAt - Number(job.finished));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    return Object.entries(parts)
      .map(([name, values]) => `${name} ${median(values).toFixed(1)}`)
      .join(', ');
  } finally {
    await db.$disconnect();
  }
}

const format = (value: number, digits = 1) => value.toFixed(digits).padStart(8);

async function main() {
  if (reportOnly) return reportCell(tableFixtures);
  if (!savedOnly && !pagedOnly) printRouteJavascript(join(root, 'apps', 'web', '.next'));
  const database = await resolveDatabase({ url: process.env.DATABASE_URL, dataDir: join(root, '.data', 'bench'), port: 54349 });
  const benchUrl = withDatabase(database.url, 'svc_bench');
  await ensureDatabase(withDatabase(database.url, 'postgres'), 'svc_bench');
  await migrate(benchUrl);
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-bench-'));
  const secretsKey = await benchSecretsKey(join(root, '.data', 'bench', 'secrets.key'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: benchUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_PUBLIC_URL: baseUrl,
    SVC_DATA_DIR: dataDir,
    SVC_WARM_SANDBOXES: String(warmSandboxes),
    SVC_SECRETS_KEY: secretsKey,
  };
  const service = await startService(env, baseUrl);
  try {
    await runCells(baseUrl, benchUrl, service);
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
    await database.stop();
  }
}

/**
 * The secrets key of the benchmark's service, kept beside its database: what the service sealed
 * there in an earlier run (the provenance key of templated renders' data hashes) must open in
 * the next, while each run's data directory is new.
 */
async function benchSecretsKey(file: string): Promise<string> {
  const kept = await readFile(file, 'utf8').catch(() => null);
  if (kept) return kept.trim();
  const key = randomBytes(32).toString('base64');
  await writeFile(file, key, { mode: 0o600 });
  return key;
}

async function runCells(baseUrl: string, benchUrl: string, service: Service) {
  const servicePids = service.pids;
  const db = createDb({ url: benchUrl, poolSize: 2 });
  const ctx = createServiceContext({ db, logger: silentLogger, config: loadConfig() });
  const account = await createAccount(ctx, { plan: 'scale', credits: 100_000 });
  // one key sustains 5 renders a second; the benchmark measures the pipeline, not that limit,
  // so it spreads requests over the account's ten keys
  const apiKeys = [account.apiKey];
  for (let index = 1; index < 10; index++) apiKeys.push((await createApiKey(ctx, { accountId: account.accountId, name: `bench ${index}` })).secret);
  // the memory run may go faster than one account's ten keys allow (50 renders a second): it
  // takes a second account's keys in turn with the first's
  const second = await createAccount(ctx, { plan: 'scale', credits: 100_000 });
  const memoryKeys = [...apiKeys, second.apiKey];
  for (let index = 1; index < 10; index++) memoryKeys.push((await createApiKey(ctx, { accountId: second.accountId, name: `bench ${index}` })).secret);
  // the cold mix: more accounts than the worker keeps warm sandboxes for, taken in turn, so
  // every job finds its account's sandbox gone and opens a new one
  const coldKeys: string[] = [];
  for (let index = 0; index < coldAccounts; index++) coldKeys.push((await createAccount(ctx, { plan: 'scale', credits: 100_000 })).apiKey);
  await db.$disconnect();
  if (savedOnly) return printTargets([], undefined, undefined, undefined, await savedCell(baseUrl, apiKeys, () => cpuBreakdown(servicePids)));
  if (pagedOnly) return printTargets([], undefined, undefined, undefined, undefined, await pagedCell(baseUrl, apiKeys, () => cpuBreakdown(servicePids)));

  const traces: Trace[] = [];
  const viaService = serviceRenderer(baseUrl, apiKeys, traces);
  const viaColdMix = serviceRenderer(baseUrl, coldKeys);
  console.log(`Benchmark: ${runs} renders per mode and cell (${invoiceRuns} in the invoice's) after ${warmup} warm-up renders, raw with svc and fresh with cold in turns of ${turnRenders}; times in ms.`);
  console.log('raw: warm page reused; fresh: raw puppeteer with a new browser context per render; svc: the service, one account;');
  console.log(`cold: the service, ${coldAccounts} accounts in turn with ${warmSandboxes} warm sandboxes.`);
  console.log(
    'fixture                  conc |  raw r/s fresh r/s  svc r/s svc/raw svc/fresh cold r/s cold/fresh |  raw p50 fresh p50  svc p50  +p50 |  raw p95  svc p95',
  );
  const splits: string[] = [];
  const cpuSplits: string[] = [];
  const cells: CellResult[] = [];
  for (const concurrency of table ? concurrencies : []) {
    const raw = await rawRenderer(concurrency, 'warm');
    const fresh = await rawRenderer(concurrency, 'fresh');
    for (const fixture of tableFixtures) {
      traces.length = 0;
      // in two pairs, each measured in turns: the warm ones, then the ones that open a context per
      // render (the cold mix, taken in turns with the service's warm cell, would evict its sandbox)
      const { raw: rawResult, svc: serviceResult } = await measureCell(fixture, concurrency, {
        // raw's machine time: every core's busy time while it ran, its own client included
        raw: { render: (item) => raw.render(item), sample: () => ({ machine: machineBusyMs() }) },
        svc: { render: viaService, sample: () => cpuBreakdown(servicePids) },
      });
      const { fresh: freshResult, cold: coldResult } = await measureCell(fixture, concurrency, {
        fresh: { render: (item) => fresh.render(item), sample: () => ({ browser: fresh.cpu() }) },
        cold: { render: viaColdMix, sample: () => cpuBreakdown(servicePids) },
      });
      splits.push(`${fixture.name} conc ${concurrency}: ${await timeSplit(benchUrl, traces.slice(warmup))}`);
      cpuSplits.push(
        `${fixture.name} conc ${concurrency}: svc ${serviceResult.cpu}\n    cold ${coldResult.cpu}\n    fresh ${freshResult.cpu}\n    raw ${rawResult.cpu}`,
      );
      cells.push({ fixture: fixture.name, concurrency, raw: rawResult, fresh: freshResult, svc: serviceResult, cold: coldResult });
      const row =
        `${fixture.name.padEnd(24)} ${String(concurrency).padStart(4)} |${format(rawResult.throughput, 2)}  ${format(freshResult.throughput, 2)} ${format(serviceResult.throughput, 2)}` +
        `${format(serviceResult.throughput / rawResult.throughput, 2)}  ${format(serviceResult.throughput / freshResult.throughput, 2)}` +
        ` ${format(coldResult.throughput, 2)}   ${format(coldResult.throughput / freshResult.throughput, 2)} |` +
        `${format(rawResult.p50)}  ${format(freshResult.p50)} ${format(serviceResult.p50)} ${format(serviceResult.p50 - rawResult.p50).slice(2)} |${format(rawResult.p95)} ${format(serviceResult.p95)}`;
      console.log(row);
    }
    await raw.close();
    await fresh.close();
  }
  if (splits.length > 0) console.log(`svc time split, medians in ms (request to admission, admission to claim, claim to finish, finish to answer):\n  ${splits.join('\n  ')}`);
  if (cpuSplits.length > 0) console.log(`CPU per render of the service cells (ms):\n  ${cpuSplits.join('\n  ')}`);
  if (cells.length > 0) printCpuRatios(cells);
  const batch = process.env.BENCH_BATCH !== '0' ? await batchCell(baseUrl, apiKeys, () => cpuBreakdown(servicePids)) : undefined;
  const saved = savedRun ? await savedCell(baseUrl, apiKeys, () => cpuBreakdown(servicePids)) : undefined;
  const paged = pagedRun ? await pagedCell(baseUrl, apiKeys, () => cpuBreakdown(servicePids)) : undefined;
  const large =
    process.env.BENCH_LARGE !== '0'
      ? await largeCell({
          render: serviceRenderer(baseUrl, apiKeys),
          // PostgreSQL's as PSS: its shared buffers, touched by every backend, count once
          memory: () => ({ ...rssParts(servicePids), postgres: pssMib(postgresProcesses()) }),
          cpu: () => cpuBreakdown(servicePids),
        })
      : undefined;
  if (reportRun) await reportCell(tableFixtures);
  let memory: MemoryResult | undefined;
  if (memoryRenders > memoryCheckpoint) {
    // the memory run is one run of a service started for it, so nothing of the cells above is in
    // its figures; it keeps no traces: 5,000 of them would only grow this process
    await service.restart();
    memory = await memoryCell(serviceRenderer(baseUrl, memoryKeys), service.pids);
  }
  printTargets(cells, batch, large, memory, saved, paged);
}

/** One cell of the table: the four ways of rendering one fixture at one concurrency, with the CPU each part spent per render. */
interface CellResult {
  fixture: string;
  concurrency: number;
  raw: CellMeasurement;
  fresh: CellMeasurement;
  svc: CellMeasurement;
  cold: CellMeasurement;
}

const spentBy = (cell: CellMeasurement, ...parts: string[]) => parts.reduce((sum, part) => sum + (cell.cpuParts[part] ?? 0), 0);
const pipelineOf = (cell: CellMeasurement) => spentBy(cell, 'web', 'worker', 'postgres');
const browserOf = (cell: CellMeasurement) => spentBy(cell, 'browser process', 'renderers', 'gpu and utility');

/**
 * The CPU ratios of the performance targets for every cell, from the figures of the same run: the pipeline around
 * the browser (web + worker + PostgreSQL) per service render against raw puppeteer's whole
 * machine time per warm render, and the browser CPU of a cold job (a new sandbox) against raw
 * puppeteer's per fresh context.
 */
function printCpuRatios(cells: CellResult[]) {
  console.log('CPU ratios per cell (ms per render): raw machine = every core busy while raw rendered; pipeline = web + worker + PostgreSQL of svc;');
  console.log('new sandbox = the browser CPU of a cold render; fresh = raw puppeteer\'s browser with a new context per render.');
  console.log('fixture                  conc | raw machine  pipeline pipeline/raw | svc browser | new sandbox    fresh new/fresh');
  for (const cell of cells) {
    const rawMachine = cell.raw.cpuParts.machine ?? Number.NaN;
    const fresh = cell.fresh.cpuParts.browser ?? Number.NaN;
    console.log(
      `${cell.fixture.padEnd(24)} ${String(cell.concurrency).padStart(4)} |${format(rawMachine).padStart(12)} ${format(pipelineOf(cell.svc), 1)} ${format(pipelineOf(cell.svc) / rawMachine, 2).padStart(12)} |` +
        `${format(browserOf(cell.svc)).padStart(12)} |${format(browserOf(cell.cold)).padStart(12)} ${format(fresh)} ${format(browserOf(cell.cold) / fresh, 2).padStart(9)}`,
    );
  }
}

/** The performance targets, each with what this run measured and whether it is met. */
function printTargets(cells: CellResult[], batch: BatchResult | undefined, large: LargeResult | undefined, memory: MemoryResult | undefined, saved?: SavedResult, paged?: PagedResult) {
  const rows: [string, string, boolean][] = [];
  const cell = (prefix: string, concurrency: number) => cells.find((each) => each.fixture.startsWith(prefix) && each.concurrency === concurrency);
  const ratio = (value: number) => value.toFixed(2);
  const invoice2 = cell('invoice', 2);
  if (invoice2) {
    const pipeline = pipelineOf(invoice2.svc) / (invoice2.raw.cpuParts.machine ?? Number.NaN);
    rows.push(['pipeline CPU per invoice render at conc 2 <= 0.5x raw warm machine time', ratio(pipeline), pipeline <= 0.5]);
    const svcRaw = invoice2.svc.throughput / invoice2.raw.throughput;
    rows.push(['invoice PDF, conc 2, svc/raw >= 0.6', ratio(svcRaw), svcRaw >= 0.6]);
  }
  for (const prefix of ['table', 'PNG']) {
    const found = cell(prefix, 2);
    if (!found) continue;
    const svcRaw = found.svc.throughput / found.raw.throughput;
    rows.push([`${found.fixture}, conc 2, svc/raw >= 0.95`, ratio(svcRaw), svcRaw >= 0.95]);
  }
  for (const each of cells) {
    const newOverFresh = browserOf(each.cold) / (each.fresh.cpuParts.browser ?? Number.NaN);
    rows.push([`${each.fixture}, conc ${each.concurrency}: new sandbox browser CPU <= 1.1x raw fresh`, ratio(newOverFresh), newOverFresh <= 1.1]);
    const coldFresh = each.cold.throughput / each.fresh.throughput;
    rows.push([`${each.fixture}, conc ${each.concurrency}: cold/fresh >= 0.9`, ratio(coldFresh), coldFresh >= 0.9]);
  }
  if (memory) {
    rows.push([`web RSS after render ${memoryRenders} <= 250 MiB`, `${memory.webMib.toFixed(0)} MiB`, memory.webMib <= 250]);
    rows.push([`web + worker + browser RSS within 10% between renders ${memoryCheckpoint} and ${memoryRenders}`, memory.ratio.toFixed(3), Math.abs(memory.ratio - 1) <= 0.1]);
  }
  if (large) {
    const failed = large.tableSvcFailures > 0 ? ` (${large.tableSvcFailures} svc renders failed)` : '';
    rows.push(['table PDF (200 pages), svc/raw >= 0.9', `${ratio(large.tableSvcOverRaw)}${failed}`, large.tableSvcOverRaw >= 0.9 && large.tableSvcFailures === 0]);
  }
  if (batch) {
    rows.push(['200-row batch/singles >= 0.9', ratio(batch.batchOverSingles), batch.batchOverSingles >= 0.9]);
    rows.push(["singles' p50 while a batch drains <= 2x idle", ratio(batch.drainingOverIdle), batch.drainingOverIdle <= 2]);
  }
  if (saved) {
    const extra = saved.webSavedMs - saved.webRawMs;
    rows.push([`saved template's web CPU per render <= raw HTML's + ${savedTargets.webExtraMs} ms`, `${extra >= 0 ? '+' : ''}${extra.toFixed(1)} ms`, extra <= savedTargets.webExtraMs]);
    rows.push([`saved template's 1,000 batch rows / 1,000 raw singles >= ${savedTargets.batchOverSingles}`, ratio(saved.batchOverSingles), saved.batchOverSingles >= savedTargets.batchOverSingles]);
  }
  if (paged) {
    const failed = paged.failures > 0 ? ` (${paged.failures} renders failed)` : '';
    const bookRatio = paged.bookPagedMs / paged.bookPlainMs;
    rows.push([`paged book (${paged.bookPages} pages) opted in <= ${pagedTargets.bookRatio}x its plain print, conc 1`, `${ratio(bookRatio)}${failed}`, bookRatio <= pagedTargets.bookRatio && paged.failures === 0]);
    const extra = paged.invoicePagedMs - paged.invoicePlainMs;
    rows.push([
      `invoice PDF opted in to paged media <= plain + ${pagedTargets.invoiceExtraMs} ms, conc 1`,
      `${extra >= 0 ? '+' : ''}${extra.toFixed(1)} ms${failed}`,
      extra <= pagedTargets.invoiceExtraMs && paged.failures === 0,
    ]);
  }
  console.log('Targets, as measured in this run:');
  for (const [target, measured, met] of rows) console.log(`  ${met ? 'met    ' : 'not met'}  ${target}: ${measured}`);
}

/**
 * Resident memory of the web and worker process trees (browser included) after render 500
 * and after the last render of one run of one-page invoices at concurrency 2. A leak per
 * render shows as growth between the two; a planned browser replacement (every 2,000
 * renders) falls inside the run, so what it frees or costs is counted too.
 */
/** What the memory run measured for the targets: the web process tree's RSS at the end, and late over early for the whole service. */
interface MemoryResult {
  webMib: number;
  ratio: number;
}

async function memoryCell(render: (fixture: Fixture) => Promise<void>, servicePids: number[]): Promise<MemoryResult> {
  const invoice = fixtures[0] as Fixture;
  await measure(() => render(invoice), memoryCheckpoint, 2);
  const early = treeRss(servicePids);
  const earlyParts = rssParts(servicePids);
  const cpuBefore = cpuBreakdown(servicePids);
  await measure(() => render(invoice), memoryRenders - memoryCheckpoint, 2);
  const cpuAfter = cpuBreakdown(servicePids);
  const late = treeRss(servicePids);
  const parts = (rss: ReturnType<typeof rssParts>) => Object.entries(rss).map(([name, mib]) => `${name} ${mib.toFixed(0)}`).join(', ');
  console.log(`memory by part (MiB): after render ${memoryCheckpoint}: ${parts(earlyParts)}; after render ${memoryRenders}: ${parts(rssParts(servicePids))}`);
  console.log(
    `memory (web + worker + browser RSS, invoice PDF, conc 2): after render ${memoryCheckpoint} ${early.mib.toFixed(0)} MiB in ${early.processes} processes; ` +
      `after render ${memoryRenders} ${late.mib.toFixed(0)} MiB in ${late.processes} processes; ratio ${(late.mib / early.mib).toFixed(3)}`,
  );
  console.log(`CPU per render over renders ${memoryCheckpoint + 1} to ${memoryRenders} (ms): ${cpuPerRender(cpuBefore, cpuAfter, memoryRenders - memoryCheckpoint)}`);
  return { webMib: rssParts(servicePids).web ?? Number.NaN, ratio: late.mib / early.mib };
}

/**
 * CPU used so far by the web process, the worker process, the browser's processes and
 * PostgreSQL's, ended processes included: a renderer whose context closed is reaped by the
 * zygote (counted with the renderers), a replaced browser by the worker (counted with the
 * browser process). A process that ended while its parent was gone too (the renderers and
 * zygote of a replaced browser) is reaped by no counted process: it keeps, in its part, what
 * it had spent when last seen, so no part's figure falls between two samples. `other` is the
 * rest of the machine's busy time, this process's own left out.
 */
function cpuBreakdown(servicePids: number[]): Record<string, number> {
  const [web, worker] = servicePids as [number, number];
  const browser = processTree([worker]).filter((pid) => pid !== worker);
  const typeOf = (pid: number) => /--type=([a-z-]+)/.exec(commandLine(pid))?.[1] ?? 'browser';
  const seen = new Map<string, SeenProcess>();
  const livePids = new Set<number>();
  const add = (pid: number, parts: (time: CpuTime) => Record<string, number>) => {
    const sample = processSample(pid);
    if (!sample) return;
    seen.set(sample.key, { parent: sample.parent, parts: parts(sample.time) });
    livePids.add(pid);
  };
  for (const pid of processTree([web])) add(pid, (time) => ({ web: time.own + time.reaped }));
  add(worker, (time) => ({ worker: time.own, 'browser process': time.reaped }));
  for (const pid of browser) {
    const type = typeOf(pid);
    if (type === 'browser') add(pid, (time) => ({ 'browser process': time.own }));
    else if (type === 'renderer') add(pid, (time) => ({ renderers: time.own }));
    else if (type === 'zygote') add(pid, (time) => ({ 'gpu and utility': time.own, renderers: time.reaped }));
    else if (type === 'gpu-process' || type === 'utility') add(pid, (time) => ({ 'gpu and utility': time.own }));
  }
  for (const pid of postgresProcesses()) add(pid, (time) => ({ postgres: time.own + time.reaped }));
  for (const [key, last] of lastSeen) {
    if (seen.has(key) || livePids.has(last.parent)) continue;
    for (const [part, ms] of Object.entries(last.parts)) endedUnreaped[part] = (endedUnreaped[part] ?? 0) + ms;
  }
  lastSeen = seen;
  const client = process.cpuUsage();
  const parts: Record<string, number> = { web: 0, worker: 0, 'browser process': 0, renderers: 0, 'gpu and utility': 0, postgres: 0 };
  for (const each of [...seen.values(), { parts: endedUnreaped }]) {
    for (const [part, ms] of Object.entries(each.parts)) parts[part] = (parts[part] ?? 0) + ms;
  }
  const counted = Object.values(parts).reduce((sum, ms) => sum + ms, 0);
  // what the machine spent besides the parts above and this benchmark's own process: what an
  // ended process spent after it was last seen, and anything else
  parts.other = machineBusyMs() - (client.user + client.system) / 1000 - counted;
  return parts;
}

/** A process as cpuBreakdown last saw it: its parent's pid and its CPU by part. */
interface SeenProcess {
  parent: number;
  parts: Record<string, number>;
}

let lastSeen = new Map<string, SeenProcess>();
/** What processes that ended unreaped by a counted process had spent when last seen, by part. */
const endedUnreaped: Record<string, number> = {};

/** Resident memory of the web process tree, the worker process and the browser's processes, in MiB. */
function rssParts(servicePids: number[]): Record<string, number> {
  const [web, worker] = servicePids as [number, number];
  const browser = processTree([worker]).filter((pid) => pid !== worker);
  const renderers = browser.filter((pid) => commandLine(pid).includes('--type=renderer'));
  return {
    web: treeRss([web]).mib,
    worker: rssMib([worker]),
    'browser (without renderers)': rssMib(browser) - rssMib(renderers),
    renderers: rssMib(renderers),
  };
}

/** CPU per render spent by each part of the service between two breakdowns, as `name ms` pairs. */
function cpuPerRender(before: Record<string, number>, after: Record<string, number>, renders: number): string {
  const parts = Object.entries(perRender(before, after, renders));
  const total = parts.reduce((sum, [, ms]) => sum + ms, 0);
  return `${parts.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')}; total ${total.toFixed(1)}`;
}

/**
 * The embedded cluster's processes: the postmaster named in its pid file and its children (run
 * as root, the cluster is started as the postgres user and is no child of this process).
 * None with DATABASE_URL set: that server is not the benchmark's alone.
 */
function postgresProcesses(): number[] {
  return process.env.DATABASE_URL ? [] : clusterProcesses(join(root, '.data', 'bench', 'pg'));
}

/** A cell's measurement: throughput and latency, and with a sample, the CPU per render of each part (and as text). */
type CellMeasurement = Measurement & { cpu: string; cpuParts: Record<string, number> };

/**
 * Modes of a cell compared with each other (raw and svc; fresh and cold) on one fixture: each
 * warmed up, then measured in turns (stats.ts, measureInTurns), so that a change of the
 * machine's speed during the cell moves both alike and the ratio between them holds.
 */
async function measureCell<Name extends string>(
  fixture: Fixture,
  concurrency: number,
  modes: Record<Name, { render: (fixture: Fixture) => Promise<void>; sample: () => Record<string, number> }>,
): Promise<Record<Name, CellMeasurement>> {
  const named = Object.entries(modes) as [Name, (typeof modes)[Name]][];
  const renders = runsOf(fixture);
  for (const [, mode] of named) for (let index = 0; index < warmup; index++) await mode.render(fixture);
  const measured = await measureInTurns(
    named.map(([, mode]) => ({ render: () => mode.render(fixture), sample: mode.sample })),
    renders,
    concurrency,
    turnRenders,
  );
  return Object.fromEntries(
    named.map(([name], index) => {
      const { spent, ...result } = measured[index]!;
      return [name, { ...result, cpu: cpuPerRender({}, spent, renders), cpuParts: perRender({}, spent, renders) }];
    }),
  ) as Record<Name, CellMeasurement>;
}

await main();
