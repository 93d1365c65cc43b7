// The large-documents cell: a 200-page table PDF and the largest raw HTML input the contract
// takes (5 MiB, drawn as a PNG of its first screen), each rendered one at a time by raw
// puppeteer on a warm page and by the service, with the time per render, the CPU per render of
// each process, and the peak resident memory of each process while the renders ran.
import { type Fixture, largeFixtures } from './fixtures.ts';
import { rawRenderer } from './raw.ts';
import { perRender, processTree, rssMib } from './processes.ts';
import { percentile } from './stats.ts';

/** Renders per side and fixture (after one warm-up render); BENCH_LARGE_RUNS. */
const runs = Number(process.env.BENCH_LARGE_RUNS ?? 3);
/** How often memory is sampled while the renders run. */
const sampleEveryMs = 100;

export interface LargeResult {
  /** The 200-page table's throughput, service over raw puppeteer. */
  tableSvcOverRaw: number;
}

/** The service as the cell sees it: how to render, and what its processes hold and have spent so far. */
export interface MeasuredService {
  render: (fixture: Fixture) => Promise<void>;
  /** resident memory by part (MiB) */
  memory: () => Record<string, number>;
  /** CPU used so far by part (ms) */
  cpu: () => Record<string, number>;
}

/** The highest value each part reached while `work` ran, sampled every 100 ms. */
async function peaks(sample: () => Record<string, number>, work: () => Promise<void>): Promise<Record<string, number>> {
  const highest: Record<string, number> = {};
  const take = () => {
    for (const [part, value] of Object.entries(sample())) highest[part] = Math.max(highest[part] ?? 0, value);
  };
  take();
  const timer = setInterval(take, sampleEveryMs);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  take();
  return highest;
}

async function timedRuns(render: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    await render();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const figures = (values: Record<string, number>, digits: number) =>
  Object.entries(values)
    .map(([part, value]) => `${part} ${value.toFixed(digits)}`)
    .join(', ');

export async function largeCell(service: MeasuredService): Promise<LargeResult> {
  console.log(`Large documents: ${runs} renders each at concurrency 1 after one warm-up; median ms per render, CPU ms per render, peak RSS MiB while rendering.`);
  const raw = await rawRenderer(1, 'warm');
  let tableSvcOverRaw = Number.NaN;
  try {
    const rawMemory = () => ({ browser: rssMib(processTree([raw.pid])), client: process.memoryUsage.rss() / 1024 / 1024 });
    for (const fixture of largeFixtures) {
      await raw.render(fixture);
      let rawTimes: number[] = [];
      const rawCpuBefore = raw.cpu();
      const clientBefore = process.cpuUsage();
      const rawPeaks = await peaks(rawMemory, async () => {
        rawTimes = await timedRuns(() => raw.render(fixture));
      });
      const client = process.cpuUsage(clientBefore);
      const rawCpu = { browser: (raw.cpu() - rawCpuBefore) / runs, client: (client.user + client.system) / 1000 / runs };

      await service.render(fixture);
      let svcTimes: number[] = [];
      const svcCpuBefore = service.cpu();
      const svcPeaks = await peaks(service.memory, async () => {
        svcTimes = await timedRuns(() => service.render(fixture));
      });
      const svcCpuAfter = service.cpu();
      const svcCpu = perRender(svcCpuBefore, svcCpuAfter, runs);

      const rawMedian = percentile(rawTimes, 0.5);
      const svcMedian = percentile(svcTimes, 0.5);
      // one at a time, so throughput over throughput is time over time
      const svcOverRaw = rawMedian / svcMedian;
      if (fixture.name.startsWith('table')) tableSvcOverRaw = svcOverRaw;
      console.log(`  ${fixture.name} (${(Buffer.byteLength(fixture.html) / 1024).toFixed(0)} KiB of HTML): raw ${rawMedian.toFixed(0)} ms, svc ${svcMedian.toFixed(0)} ms, svc/raw ${svcOverRaw.toFixed(2)}`);
      console.log(`    CPU per render: raw ${figures(rawCpu, 1)}; svc ${figures(svcCpu, 1)}`);
      console.log(`    peak RSS: raw ${figures(rawPeaks, 0)}; svc ${figures(svcPeaks, 0)}`);
    }
  } finally {
    await raw.close();
  }
  return { tableSvcOverRaw };
}
