// `npm run soak -- --minutes N`: a mixed workload of many accounts against the service in
// production mode (its own PostgreSQL, web and worker processes, an HTTPS webhook receiver and
// the scripted AI model on loopback) for N minutes. Every interval it prints throughput and
// p50/p99 per kind, refusals and errors by code, and resident memory per process; at the end,
// the totals and whether each process's memory stayed within 10% after the warm-up (the
// least-squares line through the intervals, so one interval's count of open sandboxes does not
// decide it).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAccount, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import { createDb } from '@svc/db';
import { ensureDatabase, migrate, resolveDatabase, withDatabase } from '@svc/db/admin';
import { startScriptedModel } from '../../e2e/support/scripted-model.ts';
import { type Receiver, startReceiver } from '../../e2e/support/webhook-receiver.ts';
import { makeTestTls } from '../../e2e/support/webhook-tls.ts';
import { freePort, type Service, startService } from '../service.ts';
import { formatRss, meanRss, memoryParts, type RssSample, sampleRss, Tally } from './tally.ts';
import { type Client, Failure, type Kind, kinds, type SoakAccount, setUpAccount } from './workload.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: options } = parseArgs({
  options: { minutes: { type: 'string', default: '30' }, accounts: { type: 'string', default: '20' }, concurrency: { type: 'string', default: '3' } },
});
const minutes = Number(options.minutes);
const accountCount = Number(options.accounts);
const concurrency = Number(options.concurrency);
if (!(minutes > 0) || !Number.isInteger(accountCount) || accountCount < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
  throw new Error('usage: npm run soak -- [--minutes N (> 0)] [--accounts N (>= 1)] [--concurrency N (>= 1)]');
}
/** A report a minute; every 20 s on a run shorter than five minutes, so it still shows a trend. */
const intervalMs = minutes < 5 ? 20_000 : 60_000;
/**
 * The first fifth of the run (at least one interval) warms up: the browser opens its sandboxes,
 * pools fill, the worker's heap and PostgreSQL's backends grow to their working size (about
 * three minutes here). Memory is compared from the interval after it.
 */
const warmupIntervals = Math.max(1, Math.round((minutes * 60_000) / intervalMs / 5));
const sampleMs = 5_000;
const flatWithin = 0.1;
const clusterDir = process.env.DATABASE_URL ? null : join(root, '.data', 'soak', 'pg');
const reportKinds = [...kinds.map((kind) => kind.name), 'webhook'];

async function main() {
  const database = await resolveDatabase({ url: process.env.DATABASE_URL, dataDir: join(root, '.data', 'soak'), port: Number(process.env.SVC_SOAK_PG_PORT ?? 54350) });
  const soakUrl = withDatabase(database.url, 'svc_soak');
  await ensureDatabase(withDatabase(database.url, 'postgres'), 'svc_soak');
  await migrate(soakUrl);
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-soak-'));
  const tls = makeTestTls();
  const receiver = await startReceiver(tls);
  const model = await startScriptedModel();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const service = await startService(
    {
      DATABASE_URL: soakUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_PUBLIC_URL: baseUrl,
      SVC_DATA_DIR: dataDir,
      // the receiver and the model listen on loopback, which the egress policy refuses unless listed
      SVC_UNSAFE_EGRESS_ALLOWLIST: `localhost:${receiver.port},${model.hostPort}`,
      NODE_EXTRA_CA_CERTS: tls.bundlePath,
      SVC_AI_BASE_URL: model.baseUrl,
      SVC_AI_MODEL: 'scripted-model',
      SVC_AI_API_KEY: 'sk-scripted',
    },
    baseUrl,
  );
  try {
    const client: Client = { baseUrl, model };
    const accounts = await createAccounts(soakUrl, client, receiver.port);
    await soak(client, accounts, service, receiver);
  } finally {
    await service.stop();
    await Promise.all([receiver.close(), model.close()]);
    await rm(dataDir, { recursive: true, force: true });
    await rm(tls.dir, { recursive: true, force: true });
    await database.stop();
  }
}

async function createAccounts(soakUrl: string, client: Client, receiverPort: number): Promise<SoakAccount[]> {
  const db = createDb({ url: soakUrl, poolSize: 2 });
  const ctx = createServiceContext({ db, logger: silentLogger, config: loadConfig() });
  try {
    const accounts: SoakAccount[] = [];
    for (let index = 0; index < accountCount; index++) {
      const { apiKey } = await createAccount(ctx, { plan: 'scale', credits: 1_000_000 });
      accounts.push(await setUpAccount(client, index, apiKey, receiverPort));
    }
    return accounts;
  } finally {
    await db.$disconnect();
  }
}

/** A kind drawn by weight; AI kinds only while no AI operation runs. */
function drawKind(aiBusy: boolean): Kind {
  const open = kinds.filter((kind) => !(kind.ai && aiBusy));
  let ticket = Math.random() * open.reduce((sum, kind) => sum + kind.weight, 0);
  for (const kind of open) {
    ticket -= kind.weight;
    if (ticket <= 0) return kind;
  }
  return open[open.length - 1] as Kind;
}

const clock = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

async function soak(client: Client, accounts: SoakAccount[], service: Service, receiver: Receiver) {
  const [web, worker] = service.pids as [number, number];
  const startedAt = performance.now();
  const endAt = startedAt + minutes * 60_000;
  console.log(`Soak: ${minutes} min, ${accounts.length} accounts, concurrency ${concurrency}, a report every ${intervalMs / 1000} s; times in ms, memory in MiB (RSS, its anonymous part, and PSS: shared pages divided among their sharers).`);

  let interval = new Tally();
  const total = new Tally();
  let samples: RssSample[] = [];
  const intervalRss: RssSample[] = [];
  let intervalStart = startedAt;
  const report = () => {
    // webhook deliveries since the last report: time from the event's creation to its arrival
    // (taken out of the receiver's list, which would otherwise grow for the whole run)
    for (const delivery of receiver.received.splice(0)) interval.record('webhook', delivery.receivedAt - Date.parse(JSON.parse(delivery.rawBody).created_at));
    const now = performance.now();
    const rss = meanRss(samples.length ? samples : [sampleRss(web, worker, clusterDir)]);
    intervalRss.push(rss);
    const label = intervalRss.length <= warmupIntervals ? 'warm-up interval' : 'interval';
    console.log(`\n[${clock(now - startedAt)}] ${label} of ${((now - intervalStart) / 1000).toFixed(0)} s`);
    console.log(interval.table(reportKinds, (now - intervalStart) / 1000));
    console.log(`  ${interval.failures()}`);
    console.log(`  RSS: ${formatRss(rss)}`);
    total.add(interval);
    interval = new Tally();
    samples = [];
    intervalStart = now;
  };
  const sampler = setInterval(() => samples.push(sampleRss(web, worker, clusterDir)), sampleMs);
  const reporter = setInterval(() => performance.now() < endAt - intervalMs / 2 && report(), intervalMs);

  let turn = 0;
  let aiBusy = false;
  const lane = async () => {
    while (performance.now() < endAt) {
      const kind = drawKind(aiBusy);
      const account = accounts[turn++ % accounts.length] as SoakAccount;
      if (kind.ai) aiBusy = true;
      const began = performance.now();
      try {
        await kind.run(client, account);
        interval.record(kind.name, performance.now() - began);
      } catch (error) {
        interval.record(kind.name, performance.now() - began, error instanceof Failure ? error.code : `exception: ${(error as Error).message}`);
      } finally {
        if (kind.ai) aiBusy = false;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  clearInterval(reporter);
  clearInterval(sampler);
  report();
  summarise(total, (performance.now() - startedAt) / 1000, intervalRss);
}

/** A line's value at the first and the last interval, and their ratio. */
interface Trend {
  from: number;
  to: number;
  ratio: number;
}

/** The least-squares line through one value per interval. */
function trend(values: number[]): Trend {
  const n = values.length;
  if (n < 2) return { from: values[0] ?? 0, to: values[0] ?? 0, ratio: 1 };
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((sum, value) => sum + value, 0) / n;
  let covariance = 0;
  let variance = 0;
  values.forEach((value, x) => {
    covariance += (x - meanX) * (value - meanY);
    variance += (x - meanX) ** 2;
  });
  const slope = covariance / variance;
  const from = meanY - slope * meanX;
  const to = meanY + slope * (n - 1 - meanX);
  return { from, to, ratio: to / from };
}

function summarise(total: Tally, seconds: number, intervalRss: RssSample[]) {
  const operations = [...total.times.values()].reduce((sum, times) => sum + times.length, 0);
  console.log(`\nSummary over ${clock(seconds * 1000)}: ${operations} operations and deliveries finished`);
  console.log(total.table(reportKinds, seconds));
  console.log(`  ${total.failures()}`);
  const measured = intervalRss.length > warmupIntervals + 1 ? intervalRss.slice(warmupIntervals) : intervalRss;
  let flat = true;
  const lines = memoryParts
    .filter((part) => measured[0]?.[part].mib)
    .map((part) => {
      const [rss, anon, pss] = (['mib', 'anon', 'pss'] as const).map((measure) => trend(measured.map((sample) => sample[part][measure]))) as [Trend, Trend, Trend];
      // PostgreSQL's backends each count the shared buffers they touched in their RSS, and touch
      // more of them as the tables grow, up to shared_buffers: its own memory is the anonymous part
      const [judgedName, judged] = part === 'postgres' ? (['anon', anon] as const) : (['RSS', rss] as const);
      const within = Math.abs(judged.ratio - 1) <= flatWithin;
      flat &&= within;
      const show = (name: string, line: Trend) => `${name} ${line.from.toFixed(0)} -> ${line.to.toFixed(0)} (x${line.ratio.toFixed(3)})`;
      return `${part}: ${show('RSS', rss)}, ${show('anon', anon)}, ${show('PSS', pss)}; ${judgedName} ${within ? 'within' : 'NOT within'} 10%`;
    });
  console.log(`  memory after the warm-up, the least-squares line over ${measured.length} intervals from its start to its end (MiB):\n    ${lines.join('\n    ')}`);
  const errors = total.errorCount();
  console.log(`  verdict: memory ${flat ? 'flat' : 'NOT flat'} within 10%; ${errors === 0 ? 'no errors' : `${errors} errors`} besides the expected refusals`);
  if (!flat || errors > 0) process.exitCode = 1;
}

await main();
