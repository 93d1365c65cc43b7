// The browser pool, in three parts: the browser lifecycle (launch, restart after N renders
// or a crash), the sandbox stock (spares made ready ahead, warm sandboxes kept per account,
// reset, eviction) and the job runner (slots, the per-job deadline). Each part sits on the
// one before it; the lifecycle reaches back only through BrowserEvents. What runs in a
// sandbox is the Sandbox's (sandbox.ts), which the stock opens.
import type { RendererStatus } from '../types.ts';
import { BrowserLifecycle, type BrowserLifecycleOptions } from './browser-lifecycle.ts';
import { JobRunner, type JobRunnerOptions } from './job-runner.ts';
import type { Capture, SandboxOptions } from './sandbox.ts';
import { SandboxStock, type SandboxStockOptions } from './sandbox-stock.ts';

export interface BrowserPoolOptions extends BrowserLifecycleOptions, SandboxStockOptions, JobRunnerOptions {}

export class BrowserPool {
  readonly #concurrency: number;
  readonly #browsers: BrowserLifecycle;
  readonly #stock: SandboxStock;
  readonly #jobs: JobRunner;
  /** jobs without an account, each given a tenant of its own so that their sandbox is never reused */
  #unsharedJobs = 0;

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

  /**
   * Loads the HTML in a sandbox of the job's account and runs `capture` on it once it is ready
   * (Sandbox.run, in a slot: JobRunner.run). With a report's look (`found` and `inspect`), the
   * capture is answered as soon as it is made and the look at the page follows in the sandbox
   * meanwhile, so the caller's post-processing and the look overlap: `found.complete()` tells
   * when it ended.
   */
  inSandbox<T>(options: SandboxOptions, capture: Capture<T>): Promise<T> {
    const tenant = options.account ?? `unshared:${(this.#unsharedJobs += 1)}`;
    let handOff!: (captured: T) => void;
    const handedOff = new Promise<T>((resolve) => (handOff = resolve));
    const job = { timeoutMs: options.timeoutMs, tenant, bulk: options.bulk, logger: options.logger };
    const run = this.#jobs.run(job, (sandbox, progress) => sandbox.run(options, progress, capture, handOff));
    // without a look nothing is handed off early: the answer is the run's
    options.found?.addingFrom(run);
    return Promise.race([handedOff, run]);
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
