export interface Measurement {
  /** Completed renders per second over the whole run. */
  throughput: number;
  p50: number;
  p95: number;
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] as number;
}

/** Runs `total` calls of `task` with `concurrency` in flight and measures each call. */
export async function measure(task: () => Promise<void>, total: number, concurrency: number): Promise<Measurement> {
  const run = await timedRuns(task, total, concurrency);
  return summary(run.latencies, run.elapsedMs, total);
}

/** Each call's latency and the whole run's time, in ms. */
async function timedRuns(task: () => Promise<void>, total: number, concurrency: number): Promise<{ latencies: number[]; elapsedMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const begin = performance.now();
        await task();
        latencies.push(performance.now() - begin);
      }
    }),
  );
  return { latencies, elapsedMs: performance.now() - started };
}

function summary(latencies: number[], elapsedMs: number, total: number): Measurement {
  latencies.sort((a, b) => a - b);
  return { throughput: total / (elapsedMs / 1000), p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) };
}

/** One way of rendering a cell's fixture, and the counters (CPU, in ms) read around each of its turns. */
export interface Mode {
  render: () => Promise<void>;
  sample?: () => Record<string, number>;
}

/** What a mode measured over all its turns; `spent`: each counter's growth during them, summed. */
export type ModeMeasurement = Measurement & { spent: Record<string, number> };

/**
 * Measures several modes of one cell in turns of `turn` calls each (A B C, A B C ...) until
 * each made `total`, with `concurrency` in flight within a turn. The machine's speed moves by
 * tens of percent within minutes; measured one after the other, each mode would see another
 * machine, while in turns every mode sees the same mix of its moods, so their ratios hold.
 * Counters are read around each turn only, so one mode's work never counts as another's; a
 * short pause between turns lets the previous turn's stragglers end.
 */
export async function measureInTurns(modes: Mode[], total: number, concurrency: number, turn: number, pauseMs = 200): Promise<ModeMeasurement[]> {
  const runs = modes.map(() => ({ latencies: [] as number[], elapsedMs: 0, done: 0, spent: {} as Record<string, number> }));
  while (runs.some((run) => run.done < total)) {
    for (const [index, mode] of modes.entries()) {
      const run = runs[index]!;
      const calls = Math.min(turn, total - run.done);
      if (calls === 0) continue;
      const before = mode.sample?.();
      const timed = await timedRuns(mode.render, calls, concurrency);
      const after = mode.sample?.();
      if (before && after) for (const [name, value] of Object.entries(after)) run.spent[name] = (run.spent[name] ?? 0) + value - (before[name] ?? 0);
      run.latencies.push(...timed.latencies);
      run.elapsedMs += timed.elapsedMs;
      run.done += calls;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  return runs.map((run) => ({ ...summary(run.latencies, run.elapsedMs, total), spent: run.spent }));
}
