// Running jobs: a job waits for a slot (see slots.ts), borrows a sandbox from the stock, runs
// against one deadline that starts with the slot, and gives the sandbox back while it still
// holds the slot, so the pool never runs more contexts than it has slots.
import { RenderError } from '@svc/contracts';
import { Deadline } from '@svc/deadline';
import type { RendererLogger } from '../types.ts';
import { browserFailure } from './browser-lifecycle.ts';
import type { Sandbox } from './sandbox.ts';
import type { SandboxStock } from './sandbox-stock.ts';
import { Slots } from './slots.ts';

export interface JobOptions {
  timeoutMs: number;
  /** The isolation boundary (the account): only its own jobs may reuse a sandbox it used. */
  tenant: string;
  /** bulk work (group members) is granted a free slot only when no other job waits */
  bulk?: boolean;
  /** where the job's lines go (carrying its id); omitted: the runner's logger */
  logger?: RendererLogger;
}

export interface JobRunnerOptions {
  /** jobs that run at once */
  concurrency: number;
  logger: RendererLogger;
}

/**
 * What the work tells the runner about its progress. Until the job's own content goes into
 * the page, nothing of the customer's has run: a browser lost before that is the pool's fault
 * (a browser that died a moment before it was handed out), and the job runs again on a new one.
 * So does a job at any stage whose browser was killed from outside (its launcher signalled by
 * someone other than the service): the customer's content cannot reach the launcher.
 */
export interface JobProgress {
  /** the job's content goes into the page now; from here on a lost browser fails the job */
  loadingContent(): void;
}

/** What a job does in the sandbox it is lent. */
export type JobWork<T> = (sandbox: Sandbox, progress: JobProgress) => Promise<T>;

/** A job whose browser went away through no fault of its content runs again this many times at most. */
const RETRIES_AFTER_LOSS = 2;

/** How long a job that lost its browser waits to learn how the launcher ended (it is being swept). */
const LAUNCHER_EXIT_WAIT_MS = 3_000;

interface Settle<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export class JobRunner {
  readonly #logger: RendererLogger;
  readonly #stock: SandboxStock;
  readonly #slots: Slots;
  readonly #jobs = new Set<Promise<unknown>>();
  #closed = false;

  constructor(options: JobRunnerOptions, stock: SandboxStock) {
    this.#logger = options.logger;
    this.#stock = stock;
    this.#slots = new Slots(options.concurrency);
  }

  get queued(): number {
    return this.#slots.queued;
  }

  get running(): number {
    return this.#slots.held;
  }

  /**
   * Runs `work` in a sandbox of the job's account. The answer comes as soon as the work ends;
   * giving the sandbox back (reset or closed) follows while the job still holds its slot.
   */
  run<T>(job: JobOptions, work: JobWork<T>): Promise<T> {
    let settle!: Settle<T>;
    const answer = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
    const running = this.#run(job, work, settle);
    this.#jobs.add(running);
    const forget = () => this.#jobs.delete(running);
    running.then(forget, forget);
    return answer;
  }

  /** Refuses queued jobs and waits for the running ones to end. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#slots.close();
    await Promise.allSettled([...this.#jobs]);
  }

  async #run<T>(job: JobOptions, work: JobWork<T>, settle: Settle<T>): Promise<void> {
    const release = await this.#slots.acquire(job.bulk === true).catch((error: unknown) => {
      settle.reject(error);
      return null;
    });
    if (!release) return;
    // the deadline starts with the slot: opening the context counts, waiting in the queue does not
    const deadline = new Deadline(job.timeoutMs, () => new RenderError('timeout', 'render_timeout', `render exceeded ${job.timeoutMs} ms`));
    const logger = job.logger ?? this.#logger;
    try {
      for (let attempt = 0; ; attempt += 1) {
        if (this.#closed) throw new RenderError('internal_failure', 'renderer_closed');
        const again = await this.#attempt(job, work, settle, { deadline, logger, mayRetry: attempt < RETRIES_AFTER_LOSS });
        if (!again) return;
        logger.info('render retried on a new browser', { reason: again, attempt: attempt + 1 });
      }
    } catch (error) {
      settle.reject(error);
    } finally {
      deadline.clear();
      release();
    }
  }

  /**
   * One try in one sandbox: the job is answered as soon as its work ends, and the sandbox goes
   * back to the stock while the job still holds its slot. A reason: the browser went away
   * through no fault of the job's content and the job may run again, so it is not answered yet.
   */
  async #attempt<T>(
    job: JobOptions,
    work: JobWork<T>,
    settle: Settle<T>,
    { deadline, logger, mayRetry }: { deadline: Deadline; logger: RendererLogger; mayRetry: boolean },
  ): Promise<string | null> {
    const taking = this.#stock.take(job.tenant);
    const stocked = await deadline.race(taking).catch((error: unknown) => {
      // a sandbox that opens after all is nobody's
      taking.then((late) => this.#stock.discardLate(late), () => undefined).catch(() => undefined);
      if (deadline.passed) logger.warn('render timed out', { code: 'render_timeout', timeoutMs: job.timeoutMs, phase: 'opening the sandbox' });
      throw error;
    });
    // the stock claimed the sandbox's browser already, so a drain cannot stop it now
    const { instance, sandbox } = stocked;
    // the next job's sandbox is prepared while this one renders
    this.#stock.refill();
    let contentLoading = false;
    let succeeded = false;
    try {
      settle.resolve(await deadline.race(work(sandbox, { loadingContent: () => (contentLoading = true) })));
      succeeded = true;
      return null;
    } catch (error) {
      if (deadline.passed) logger.warn('render timed out', { code: 'render_timeout', timeoutMs: job.timeoutMs, phase: 'rendering', pid: instance.pid });
      const failure = browserFailure(error, instance);
      if (mayRetry && !deadline.passed && failure.code === 'browser_crashed') {
        if (!contentLoading) return 'its browser went away before the content loaded';
        if (await instance.killedFromOutside(LAUNCHER_EXIT_WAIT_MS)) return 'its browser was killed from outside';
      }
      settle.reject(failure);
      return null;
    } finally {
      await this.#stock.giveBack(job.tenant, stocked, succeeded);
    }
  }
}
