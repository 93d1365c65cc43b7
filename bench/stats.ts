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
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { throughput: total / elapsed, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) };
}
