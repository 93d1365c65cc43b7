// Running jobs: a job waits for a slot (see slots.ts), borrows a sandbox from the stock, runs
// against one deadline that starts with the slot, and gives the sandbox back while it still
// holds the slot, so the pool never runs more contexts than it has slots.
import { RenderError } from '@svc/contracts';
import type { RendererLogger } from '../types.ts';
import { browserFailure } from './browser-lifecycle.ts';
import type { Prepared, SandboxStock } from './sandbox-stock.ts';
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
  run<T>(job: JobOptions, work: (prepared: Prepared) => Promise<T>): Promise<T> {
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

  async #run<T>(job: JobOptions, work: (prepared: Prepared) => Promise<T>, settle: Settle<T>): Promise<void> {
    const release = await this.#slots.acquire(job.bulk === true).catch((error: unknown) => {
      settle.reject(error);
      return null;
    });
    if (!release) return;
    // the deadline starts with the slot: opening the context counts, waiting in the queue does not
    const deadline = new Deadline(job.timeoutMs);
    const logger = job.logger ?? this.#logger;
    try {
      if (this.#closed) throw new RenderError('internal_failure', 'renderer_closed');
      const taking = this.#stock.take(job.tenant);
      const sandbox = await deadline.race(taking).catch((error: unknown) => {
        // a sandbox that opens after all is nobody's
        taking.then((late) => this.#stock.discardLate(late), () => undefined).catch(() => undefined);
        if (deadline.expired) logger.warn('render timed out', { code: 'render_timeout', timeoutMs: job.timeoutMs, phase: 'opening the sandbox' });
        throw error;
      });
      // the stock claimed the sandbox's browser already, so a drain cannot stop it now
      const { instance, prepared } = sandbox;
      // the next job's sandbox is prepared while this one renders
      this.#stock.refill();
      let succeeded = false;
      try {
        settle.resolve(await deadline.race(work(prepared)));
        succeeded = true;
      } catch (error) {
        if (deadline.expired) logger.warn('render timed out', { code: 'render_timeout', timeoutMs: job.timeoutMs, phase: 'rendering', pid: instance.pid });
        settle.reject(browserFailure(error, instance));
      } finally {
        deadline.clear();
        await this.#stock.giveBack(job.tenant, sandbox, succeeded);
      }
    } catch (error) {
      settle.reject(error);
    } finally {
      deadline.clear();
      release();
    }
  }
}

/** One timer per job; every step of the job races it. */
class Deadline {
  readonly #expired: Promise<never>;
  #timer: NodeJS.Timeout | undefined;
  expired = false;

  constructor(timeoutMs: number) {
    this.#expired = new Promise<never>((_, reject) => {
      this.#timer = setTimeout(() => {
        this.expired = true;
        reject(new RenderError('timeout', 'render_timeout', `render exceeded ${timeoutMs} ms`));
      }, timeoutMs);
    });
    this.#expired.catch(() => undefined);
  }

  race<T>(step: Promise<T>): Promise<T> {
    // if the deadline wins, closing the context makes `step` settle; its rejection is expected
    step.catch(() => undefined);
    return Promise.race([step, this.#expired]);
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}
