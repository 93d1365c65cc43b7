// What the soak counts and prints: per kind of operation the finished ones and their times,
// refusals the contract documents (limits doing their job) apart from errors, and resident
// memory (all of it, and its anonymous part) of the web process, the worker, the worker's
// browser and PostgreSQL.
import { anonMib, clusterProcesses, processTree, pssMib, rssMib } from '../processes.ts';
import { percentile } from '../stats.ts';

/** Answers the contract documents for a client going faster than its limits or credits allow. */
const refusalCodes = new Set(['rate_limited', 'account_concurrency_limited', 'key_concurrency_limited', 'insufficient_credits', 'overloaded']);

const increment = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

export class Tally {
  readonly times = new Map<string, number[]>();
  readonly refusals = new Map<string, number>();
  readonly errors = new Map<string, number>();
  private readonly refusedByKind = new Map<string, number>();
  private readonly failedByKind = new Map<string, number>();

  private timesOf(kind: string): number[] {
    if (!this.times.has(kind)) this.times.set(kind, []);
    return this.times.get(kind) as number[];
  }

  record(kind: string, ms: number, failureCode?: string) {
    if (failureCode === undefined) {
      this.timesOf(kind).push(ms);
    } else if (refusalCodes.has(failureCode)) {
      increment(this.refusals, failureCode);
      increment(this.refusedByKind, kind);
    } else {
      increment(this.errors, `${failureCode} (${kind})`);
      increment(this.failedByKind, kind);
    }
  }

  add(other: Tally) {
    for (const [kind, times] of other.times) this.timesOf(kind).push(...times);
    for (const [target, source] of [
      [this.refusals, other.refusals],
      [this.errors, other.errors],
      [this.refusedByKind, other.refusedByKind],
      [this.failedByKind, other.failedByKind],
    ] as const) {
      for (const [key, count] of source) target.set(key, (target.get(key) ?? 0) + count);
    }
  }

  errorCount(): number {
    return [...this.errors.values()].reduce((sum, count) => sum + count, 0);
  }

  /** A table: per kind, finished operations, per second, p50 and p99 in ms, refused, errors. */
  table(kindNames: string[], seconds: number): string {
    const header = `  ${'kind'.padEnd(16)}${'done'.padStart(7)}${'/s'.padStart(8)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'refused'.padStart(9)}${'errors'.padStart(8)}`;
    const rows = kindNames.map((kind) => {
      const times = [...(this.times.get(kind) ?? [])].sort((a, b) => a - b);
      const ms = (fraction: number) => (times.length ? percentile(times, fraction).toFixed(0) : '-');
      return (
        `  ${kind.padEnd(16)}${String(times.length).padStart(7)}${(times.length / seconds).toFixed(2).padStart(8)}${ms(0.5).padStart(10)}${ms(0.99).padStart(10)}` +
        `${String(this.refusedByKind.get(kind) ?? 0).padStart(9)}${String(this.failedByKind.get(kind) ?? 0).padStart(8)}`
      );
    });
    return [header, ...rows].join('\n');
  }

  /** "refusals: ...; errors: ..." with counts by code. */
  failures(): string {
    const list = (counts: Map<string, number>) => (counts.size ? [...counts].map(([code, count]) => `${code} ${count}`).join(', ') : 'none');
    return `refusals by code: ${list(this.refusals)}; errors by code: ${list(this.errors)}`;
  }
}

export const memoryParts = ['web', 'worker', 'browser', 'postgres'] as const;
export type MemoryPart = (typeof memoryParts)[number];
/** Per part: summed RSS, its anonymous part and summed PSS in MiB, and how many processes. */
export type RssSample = Record<MemoryPart, { mib: number; anon: number; pss: number; processes: number }>;

/**
 * Resident memory now: the web process tree, the worker process alone, the worker's children
 * (Chromium: browser, zygotes, renderers, utilities) and the embedded cluster's processes
 * (none when the soak runs against DATABASE_URL's server).
 */
export function sampleRss(web: number, worker: number, clusterDir: string | null): RssSample {
  const pids: Record<MemoryPart, number[]> = {
    web: processTree([web]),
    worker: [worker],
    browser: processTree([worker]).filter((pid) => pid !== worker),
    postgres: clusterDir ? clusterProcesses(clusterDir) : [],
  };
  const measured = memoryParts.map((part) => [part, { mib: rssMib(pids[part]), anon: anonMib(pids[part]), pss: pssMib(pids[part]), processes: pids[part].length }]);
  return Object.fromEntries(measured) as RssSample;
}

/** The mean of each part over an interval's samples. */
export function meanRss(samples: RssSample[]): RssSample {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const parts = memoryParts.map((part) => [
    part,
    {
      mib: mean(samples.map((sample) => sample[part].mib)),
      anon: mean(samples.map((sample) => sample[part].anon)),
      pss: mean(samples.map((sample) => sample[part].pss)),
      processes: Math.round(mean(samples.map((sample) => sample[part].processes))),
    },
  ]);
  return Object.fromEntries(parts) as RssSample;
}

export function formatRss(rss: RssSample): string {
  return memoryParts.map((part) => `${part} ${rss[part].mib.toFixed(0)} (anon ${rss[part].anon.toFixed(0)}, pss ${rss[part].pss.toFixed(0)}, ${rss[part].processes} processes)`).join(', ');
}
