// The browser pool, in three parts: the browser lifecycle (launch, restart after N renders
// or a crash), the sandbox stock (spares made ready ahead, warm sandboxes kept per account,
// reset, eviction) and the job runner (slots, the per-job deadline). Each part sits on the
// one before it; the lifecycle reaches back only through BrowserEvents.
import type { RendererStatus } from '../types.ts';
import { BrowserLifecycle, type BrowserLifecycleOptions } from './browser-lifecycle.ts';
import { JobRunner, type JobOptions, type JobProgress, type JobRunnerOptions } from './job-runner.ts';
import { type Prepared, SandboxStock, type SandboxStockOptions } from './sandbox-stock.ts';

export interface BrowserPoolOptions extends BrowserLifecycleOptions, SandboxStockOptions, JobRunnerOptions {}

export class BrowserPool {
  readonly #concurrency: number;
  readonly #browsers: BrowserLifecycle;
  readonly #stock: SandboxStock;
  readonly #jobs: JobRunner;

  private constructor(options: BrowserPoolOptions) {
    this.#concurrency = options.concurrency;
    this.#browsers = new BrowserLifecycle(options, {
      retired: (instance) => this.#stock.dropBrowser(instance),
      replaced: () => this.#stock.refill(),
    });
    this.#stock = new SandboxStock(options, this.#browsers);
    this.#jobs = new JobRunner(options, this.#stock);
  }

  /** Launches the first browser and starts making spares ready in it. */
  static async start(options: BrowserPoolOptions): Promise<BrowserPool> {
    const pool = new BrowserPool(options);
    await pool.#browsers.start();
    pool.#stock.refill();
    return pool;
  }

  /** Runs `work` in a sandbox of the job's account (see JobRunner.run). */
  run<T>(job: JobOptions, work: (prepared: Prepared, progress: JobProgress) => Promise<T>): Promise<T> {
    return this.#jobs.run(job, work);
  }

  status(): RendererStatus {
    const current = this.#browsers.inRotation;
    return {
      browserPid: current?.pid ?? null,
      userDataDir: current?.userDataDir ?? null,
      rendersOnCurrentBrowser: current?.renders ?? 0,
      launches: this.#browsers.launches,
      queued: this.#jobs.queued,
      running: this.#jobs.running,
      slots: this.#concurrency,
      warmSandboxes: this.#stock.warmCount,
      spareSandboxes: this.#stock.spareCount,
      restarts: this.#browsers.restarts,
      crashes: this.#browsers.crashes,
    };
  }

  /** Refuses queued jobs, lets running ones finish, closes the idle sandboxes, then stops every browser. */
  async close(): Promise<void> {
    // in one step nothing new starts: no browser launched, no sandbox made ready or kept, no job
    this.#browsers.stopLaunching();
    this.#stock.stopStocking();
    await this.#jobs.close();
    await this.#stock.closeIdle();
    await this.#browsers.close();
  }
}
