// The large-documents cell: a 200-page table PDF and the largest raw HTML input the contract
// takes (5 MiB, drawn as a PNG of its first screen), each rendered one at a time by raw
// puppeteer on a warm page and by the service, with the time per render, the CPU per render of
// each process, and the peak resident memory of each process while the renders ran.
import { type Fixture, largeFixtures } from './fixtures.ts';
import { rawRenderer } from './raw.ts';
import { addParts, formatParts, machineBusyMs, perRender, processTree, rssMib } from './processes.ts';
import { percentile } from './stats.ts';

/**
 * Renders per side and fixture (after one warm-up render); BENCH_LARGE_RUNS. Seven: one print
 * of the 200-page table takes 4.4 to 6.1 s on the same page (8.1 to 12.0 s on a slower
 * machine), so a median of three moved its svc/raw by a fifth from run to run, and a median of
 * five still by a sixth (0.84 and 1.00 in two runs of the same code).
 */
const runs = Number(process.env.BENCH_LARGE_RUNS ?? 7);
/** How often memory is sampled while the renders run. */
const sampleEveryMs = 100;

export interface LargeResult {
  /** The 200-page table's throughput, service over raw puppeteer. */
  tableSvcOverRaw: number;
  /** The 200-page table's service renders that did not succeed (a render past the service's deadline on a slow machine). */
  tableSvcFailures: number;
}

/** The service as the cell sees it: how to render, and what its processes hold and have spent so far. */
export interface MeasuredService {
  render: (fixture: Fixture) => Promise<void>;
  /** resident memory by part (MiB) */
  memory: () => Record<string, number>;
  /** CPU used so far by part (ms) */
  cpu: () => Record<string, number>;
}

/** `work`'s time in ms; `highest` keeps the highest value each part reached while it ran, sampled every 100 ms. */
async function timed(sample: () => Record<string, number>, highest: Record<string, number>, work: () => Promise<void>): Promise<number> {
  const take = () => {
    for (const [part, value] of Object.entries(sample())) highest[part] = Math.max(highest[part] ?? 0, value);
  };
  take();
  const timer = setInterval(take, sampleEveryMs);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - started;
  take();
  return ms;
}

/**
 * Waits (at most 10 s) until the machine is quiet: a large document's render leaves work behind
 * it (its document torn down, its file written out), which would otherwise fall on the other
 * side's turn. The CPU figures are taken after it, so that work counts for the side that left it.
 */
async function settle(): Promise<void> {
  const window = 250;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    const before = machineBusyMs();
    await new Promise((resolve) => setTimeout(resolve, window));
    // under a tenth of one core busy
    if (machineBusyMs() - before < window / 10) return;
  }
}

export async function largeCell(service: MeasuredService): Promise<LargeResult> {
  console.log(`Large documents: ${runs} renders each at concurrency 1 after one warm-up, raw and svc in turns; median ms per render, CPU ms per render, peak RSS MiB while rendering.`);
  const raw = await rawRenderer(1, 'warm');
  let tableSvcOverRaw = Number.NaN;
  let tableSvcFailures = 0;
  try {
    const rawMemory = () => ({ browser: rssMib(processTree([raw.pid])), client: process.memoryUsage.rss() / 1024 / 1024 });
    for (const fixture of largeFixtures) {
      // a service render that does not succeed (past the render deadline on a slow machine) is
      // counted and reported: the cell's other figures and the cells after it still count
      const failures: string[] = [];
      const viaService = () => service.render(fixture).catch((error: unknown) => void failures.push(error instanceof Error ? error.message : String(error)));
      await raw.render(fixture);
      await viaService();
      failures.length = 0;
      await settle();
      // in turns, one render each, so a change of the machine's speed moves both sides alike
      const rawTimes: number[] = [];
      const svcTimes: number[] = [];
      const rawPeaks: Record<string, number> = {};
      const svcPeaks: Record<string, number> = {};
      const rawCpu = { browser: 0, client: 0 };
      const svcCpu: Record<string, number> = {};
      for (let index = 0; index < runs; index++) {
        const rawCpuBefore = raw.cpu();
        const clientBefore = process.cpuUsage();
        rawTimes.push(await timed(rawMemory, rawPeaks, () => raw.render(fixture)));
        await settle();
        const client = process.cpuUsage(clientBefore);
        rawCpu.browser += (raw.cpu() - rawCpuBefore) / runs;
        rawCpu.client += (client.user + client.system) / 1000 / runs;

        const svcCpuBefore = service.cpu();
        const failed = failures.length;
        const svcTime = await timed(service.memory, svcPeaks, viaService);
        if (failures.length === failed) svcTimes.push(svcTime);
        await settle();
        addParts(svcCpu, perRender(svcCpuBefore, service.cpu(), runs));
      }
      rawTimes.sort((x, y) => x - y);
      svcTimes.sort((x, y) => x - y);

      const rawMedian = percentile(rawTimes, 0.5);
      const svcMedian = percentile(svcTimes, 0.5);
      // one at a time, so throughput over throughput is time over time
      const svcOverRaw = rawMedian / svcMedian;
      if (fixture.name.startsWith('table')) {
        tableSvcOverRaw = svcOverRaw;
        tableSvcFailures = failures.length;
      }
      console.log(`  ${fixture.name} (${(Buffer.byteLength(fixture.html) / 1024).toFixed(0)} KiB of HTML): raw ${rawMedian.toFixed(0)} ms, svc ${svcMedian.toFixed(0)} ms, svc/raw ${svcOverRaw.toFixed(2)}`);
      if (failures.length > 0) console.log(`    svc renders that failed: ${failures.length} of ${runs} (the median is of the others): ${failures[0]}`);
      console.log(`    CPU per render: raw ${formatParts(rawCpu, 1)}; svc ${formatParts(svcCpu, 1)}`);
      console.log(`    peak RSS: raw ${formatParts(rawPeaks, 0)}; svc ${formatParts(svcPeaks, 0)}`);
    }
  } finally {
    await raw.close();
  }
  return { tableSvcOverRaw, tableSvcFailures };
}
