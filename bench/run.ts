// `npm run bench`: renders the same fixtures through raw puppeteer (warm pages, setContent,
// pdf/screenshot) and through the whole service (HTTP, admission, queue, worker, storage),
// at concurrency 1 and 2, and prints throughput, p50 and p95 with the service/raw ratios:
// once for one account (warm sandboxes) and once for a cold mix of more accounts than warm
// sandboxes, round robin. Then the memory cell: resident memory of the web and worker
// process trees (browser included) after render 500 and after render 5,000 of one run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccount, createApiKey, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import { createDb } from '@svc/db';
import { DEFAULT_CHROMIUM_PATH, headlessMode } from '@svc/renderer';
import { ensureDatabase, migrate, resolveDatabase, withDatabase } from '@svc/db/admin';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { type Fixture, fixtures } from './fixtures.ts';
import { batchCell } from './groups.ts';
import { reportCell } from './report.ts';
import { printRouteJavascript } from './route-javascript.ts';
import { clusterProcesses, commandLine, cpuMs, cpuTime, machineBusyMs, processTree, rssMib, treeRss } from './processes.ts';
import { freePort, type Service, startService } from './service.ts';
import { type Measurement, measure } from './stats.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 40);
const warmup = 5;
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
const tableFixtures = fixtures.filter((fixture) => !fixtureFilter || fixtureFilter.some((word) => fixture.name.toLowerCase().startsWith(word)));

/**
 * Raw puppeteer on the service's browser binary. `warm`: one page per concurrent render, reused
 * (the issue's baseline). `fresh`: a new browser context per render, closed afterwards, which
 * is the isolation the service gives every job; the gap between the two is the price of that
 * isolation alone, before any HTTP, queue or storage.
 */
async function rawRenderer(concurrency: number, mode: 'warm' | 'fresh') {
  const executablePath = process.env.SVC_CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
  const browser: Browser = await puppeteer.launch({
    executablePath,
    headless: headlessMode(executablePath),
    // the same performance flags as the service's pool: pages rendering side by side must not be
    // throttled as background tabs
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling',
      '--disable-backgrounding-occluded-windows',
    ],
  });
  const openPage = async () => {
    // one context per page: a screenshot needs its page in front, and each context has its own window
    const page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 720 });
    return page;
  };
  const free: Page[] = [];
  if (mode === 'warm') for (let index = 0; index < concurrency; index++) free.push(await openPage());
  const capture = async (page: Page, fixture: Fixture) => {
    await page.setContent(fixture.html, { waitUntil: 'load' });
    if (fixture.kind === 'pdf') await page.pdf({ format: 'A4', printBackground: true });
    else await page.screenshot({ type: 'png' });
  };
  return {
    async render(fixture: Fixture) {
      if (mode === 'fresh') {
        const page = await openPage();
        try {
          await capture(page, fixture);
        } finally {
          await page.browserContext().close();
        }
        return;
      }
      const page = free.pop() as Page;
      try {
        await capture(page, fixture);
      } finally {
        free.push(page);
      }
    },
    /** CPU its browser's processes (ended ones included) have used so far, in ms */
    cpu: () => cpuMs(processTree([browser.process()?.pid as number])),
    close: () => browser.close(),
  };
}

/** One service render as the client saw it: the job's id, when the request left, when its answer arrived (epoch ms). */
interface Trace {
  id: string;
  sentAt: number;
  answeredAt: number;
}

const epochNow = () => performance.timeOrigin + performance.now();

function serviceRenderer(baseUrl: string, apiKeys: string[], traces?: Trace[]) {
  let turn = 0;
  return async (fixture: Fixture) => {
    const sentAt = epochNow();
    const apiKey = apiKeys[turn++ % apiKeys.length];
    const body = fixture.kind === 'pdf' ? { html: fixture.html } : { html: fixture.html, image: { format: 'png', width: 1280, height: 720 } };
    const response = await fetch(`${baseUrl}/v1/${fixture.kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const job = (await response.json()) as { id: string; status: string };
    if (response.status !== 200 || job.status !== 'succeeded') throw new Error(`service render failed: ${response.status} ${JSON.stringify(job)}`);
    traces?.push({ id: job.id, sentAt, answeredAt: epochNow() });
  };
}

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
  printRouteJavascript(join(root, 'apps', 'web', '.next'));
  const database = await resolveDatabase({ url: process.env.DATABASE_URL, dataDir: join(root, '.data', 'bench'), port: 54349 });
  const benchUrl = withDatabase(database.url, 'svc_bench');
  await ensureDatabase(withDatabase(database.url, 'postgres'), 'svc_bench');
  await migrate(benchUrl);
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-bench-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: benchUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_PUBLIC_URL: baseUrl,
    SVC_DATA_DIR: dataDir,
    SVC_WARM_SANDBOXES: String(warmSandboxes),
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

  const traces: Trace[] = [];
  const viaService = serviceRenderer(baseUrl, apiKeys, traces);
  const viaColdMix = serviceRenderer(baseUrl, coldKeys);
  console.log(`Benchmark: ${runs} renders per cell after ${warmup} warm-up renders; times in ms.`);
  console.log('raw: warm page reused; fresh: raw puppeteer with a new browser context per render; svc: the service, one account;');
  console.log(`cold: the service, ${coldAccounts} accounts in turn with ${warmSandboxes} warm sandboxes.`);
  console.log(
    'fixture                  conc |  raw r/s fresh r/s  svc r/s svc/raw svc/fresh cold r/s cold/fresh |  raw p50 fresh p50  svc p50  +p50 |  raw p95  svc p95',
  );
  const splits: string[] = [];
  const cpuSplits: string[] = [];
  for (const concurrency of table ? concurrencies : []) {
    const raw = await rawRenderer(concurrency, 'warm');
    const fresh = await rawRenderer(concurrency, 'fresh');
    for (const fixture of tableFixtures) {
      const rawResult = await measureCell((item) => raw.render(item), fixture, concurrency);
      const freshResult = await measureCell((item) => fresh.render(item), fixture, concurrency, () => ({ browser: fresh.cpu() }));
      traces.length = 0;
      const serviceResult = await measureCell(viaService, fixture, concurrency, () => cpuBreakdown(servicePids));
      splits.push(`${fixture.name} conc ${concurrency}: ${await timeSplit(benchUrl, traces.slice(warmup))}`);
      const coldResult = await measureCell(viaColdMix, fixture, concurrency, () => cpuBreakdown(servicePids));
      cpuSplits.push(`${fixture.name} conc ${concurrency}: svc ${serviceResult.cpu}\n    cold ${coldResult.cpu}\n    fresh ${freshResult.cpu}`);
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
  if (process.env.BENCH_BATCH !== '0') await batchCell(baseUrl, apiKeys);
  if (reportRun) await reportCell(tableFixtures);
  if (memoryRenders <= memoryCheckpoint) return;
  // the memory run is one run of a service started for it, so nothing of the cells above is in
  // its figures; it keeps no traces: 5,000 of them would only grow this process
  await service.restart();
  await memoryCell(serviceRenderer(baseUrl, memoryKeys), service.pids);
}

/**
 * Resident memory of the web and worker process trees (browser included) after render 500
 * and after the last render of one run of one-page invoices at concurrency 2. A leak per
 * render shows as growth between the two; a planned browser replacement (every 2,000
 * renders) falls inside the run, so what it frees or costs is counted too.
 */
async function memoryCell(render: (fixture: Fixture) => Promise<void>, servicePids: number[]) {
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
}

/**
 * CPU used so far by the web process, the worker process, the browser's processes and
 * PostgreSQL's, ended processes included: a renderer whose context closed is reaped by the
 * zygote (counted with the renderers), a replaced browser by the worker (counted with the
 * browser process). `other` is the rest of the machine's busy time, this process's own left out.
 */
function cpuBreakdown(servicePids: number[]): Record<string, number> {
  const [web, worker] = servicePids as [number, number];
  const browser = processTree([worker]).filter((pid) => pid !== worker);
  const ofType = (type: string) => browser.filter((pid) => (/--type=([a-z-]+)/.exec(commandLine(pid))?.[1] ?? 'browser') === type);
  const own = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuTime(pid).own, 0);
  const reaped = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuTime(pid).reaped, 0);
  const workerTime = cpuTime(worker);
  const client = process.cpuUsage();
  const parts: Record<string, number> = {
    web: cpuMs(processTree([web])),
    worker: workerTime.own,
    'browser process': own(ofType('browser')) + workerTime.reaped,
    renderers: own(ofType('renderer')) + reaped(ofType('zygote')),
    'gpu and utility': own([...ofType('gpu-process'), ...ofType('utility'), ...ofType('zygote')]),
    postgres: cpuMs(postgresProcesses()),
  };
  const counted = Object.values(parts).reduce((sum, ms) => sum + ms, 0);
  // what the machine spent besides the parts above and this benchmark's own process: processes
  // that ended unreaped by a counted parent (a replaced browser's renderers), and anything else
  parts.other = machineBusyMs() - (client.user + client.system) / 1000 - counted;
  return parts;
}

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
  const parts = Object.keys(after).map((name) => [name, (after[name]! - (before[name] ?? 0)) / renders] as const);
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

/**
 * A cell: warm-up renders, then the measured ones; with `sample` (CPU used so far, by part),
 * also the CPU per render each part spent on the measured renders.
 */
async function measureCell(
  render: (fixture: Fixture) => Promise<void>,
  fixture: Fixture,
  concurrency: number,
  sample?: () => Record<string, number>,
): Promise<Measurement & { cpu: string }> {
  for (let index = 0; index < warmup; index++) await render(fixture);
  const before = sample?.();
  const result = await measure(() => render(fixture), runs, concurrency);
  return { ...result, cpu: sample && before ? cpuPerRender(before, sample(), runs) : '' };
}

await main();
