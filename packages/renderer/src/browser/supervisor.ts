// The browser pool: one warm Chromium, a concurrency cap with a queue, one fresh browser context
// per job, a hard per-job deadline, and a replacement browser after N renders or a crash.
// Model: gotenberg's supervisor.
import type { Browser, BrowserContext } from 'puppeteer-core';
import { RenderError, isRenderError } from '../errors.ts';
import type { RendererStatus } from '../types.ts';
import { BrowserInstance } from './browser-instance.ts';
import { Slots } from './slots.ts';
import { sweepStaleProfiles } from './stale-profiles.ts';

/**
 * A job's sandbox made ready before the job arrives: a fresh browser context (never used
 * by another job) with whatever the sandbox layer set up in it. `dispose` frees what is
 * not part of the context (it runs after the context is closed).
 */
export interface Prepared<E = unknown> {
  context: BrowserContext;
  extra: E;
  dispose(): Promise<void>;
}

export interface SupervisorOptions {
  executablePath: string;
  concurrency: number;
  restartAfter: number;
  launchTimeoutMs: number;
  /** Builds one sandbox in a browser; the supervisor keeps one ready per slot. */
  prepare: (browser: Browser) => Promise<Prepared>;
}

export interface JobOptions {
  timeoutMs: number;
}

interface Spare {
  instance: BrowserInstance;
  prepared: Prepared;
}

/** A context that does not close in this time belongs to a wedged browser, which is replaced. */
const CONTEXT_CLOSE_MS = 5_000;

export class Supervisor {
  readonly #options: SupervisorOptions;
  readonly #slots: Slots;
  readonly #instances = new Set<BrowserInstance>();
  readonly #jobs = new Set<Promise<unknown>>();
  #current: BrowserInstance | null = null;
  #launching: Promise<BrowserInstance> | null = null;
  #launches = 0;
  #closed = false;
  /** Sandboxes made ready ahead of jobs: opening a context and its page is most of a job's overhead. */
  readonly #spares: Spare[] = [];
  #preparing = 0;

  private constructor(options: SupervisorOptions) {
    this.#options = options;
    this.#slots = new Slots(options.concurrency);
  }

  static async start(options: SupervisorOptions): Promise<Supervisor> {
    const supervisor = new Supervisor(options);
    await sweepStaleProfiles();
    await supervisor.#browser();
    supervisor.#refill();
    return supervisor;
  }

  status(): RendererStatus {
    const current = this.#current;
    return {
      browserPid: current?.pid ?? null,
      userDataDir: current?.userDataDir ?? null,
      rendersOnCurrentBrowser: current?.renders ?? 0,
      launches: this.#launches,
      queued: this.#slots.queued,
      running: this.#slots.held,
    };
  }

  /**
   * Runs `work` in a fresh sandbox that is closed afterwards, whatever happens. The answer
   * comes as soon as the work ends; closing the context follows while the job still holds
   * its slot, so the pool never runs more contexts than it has slots.
   */
  withContext<T>(job: JobOptions, work: (prepared: Prepared) => Promise<T>): Promise<T> {
    let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
    const answer = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
    const running = this.#runJob(job, work, settle);
    this.#jobs.add(running);
    const forget = () => this.#jobs.delete(running);
    running.then(forget, forget);
    return answer;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#slots.close();
    await Promise.allSettled([...this.#jobs]);
    await Promise.allSettled(this.#spares.splice(0).map((spare) => this.#disposeSpare(spare)));
    await this.#launching?.catch(() => undefined);
    this.#current = null;
    await Promise.all([...this.#instances].map((instance) => instance.stop()));
    this.#instances.clear();
  }

  async #runJob<T>(
    job: JobOptions,
    work: (prepared: Prepared) => Promise<T>,
    settle: { resolve: (value: T) => void; reject: (error: unknown) => void },
  ): Promise<void> {
    const release = await this.#slots.acquire().catch((error: unknown) => {
      settle.reject(error);
      return null;
    });
    if (!release) return;
    // the deadline starts with the slot: opening the context counts, waiting in the queue does not
    const deadline = new Deadline(job.timeoutMs);
    try {
      if (this.#closed) throw new RenderError('internal_failure', 'renderer_closed');
      const opening = this.#take();
      const spare = await deadline.race(opening).catch((error: unknown) => {
        // a sandbox that opens after all is nobody's: close it
        opening.then((late) => this.#disposeSpare(late), () => undefined).catch(() => undefined);
        throw error;
      });
      const { instance, prepared } = spare;
      instance.inFlight += 1;
      // the next job's sandbox is prepared while this one renders
      this.#refill();
      try {
        settle.resolve(await deadline.race(work(prepared)));
      } catch (error) {
        settle.reject(asRenderError(error, instance));
      } finally {
        deadline.clear();
        await this.#closeContext(prepared.context, instance);
        await prepared.dispose().catch(() => undefined);
        instance.inFlight -= 1;
        instance.renders += 1;
        this.#afterJob(instance);
      }
    } catch (error) {
      settle.reject(error);
    } finally {
      deadline.clear();
      release();
    }
  }

  /** A ready sandbox on a live browser, or a new one when none is ready. */
  async #take(): Promise<Spare> {
    while (this.#spares.length > 0) {
      const spare = this.#spares.shift() as Spare;
      if (spare.instance.alive && !spare.instance.retiring && (await answers(spare.instance))) return spare;
      // a browser killed a moment ago may not have reported its disconnect yet
      if (!spare.instance.retiring && spare.instance.alive) this.#discard(spare.instance);
      void this.#disposeSpare(spare);
    }
    return this.#prepareSpare();
  }

  async #prepareSpare(): Promise<Spare> {
    // one retry: a browser that died a moment ago may not have reported its disconnect yet
    for (let attempt = 0; ; attempt += 1) {
      const instance = await this.#browser();
      try {
        return { instance, prepared: await this.#options.prepare(instance.browser) };
      } catch (error) {
        if (instance.alive || attempt > 0) throw asRenderError(error, instance);
        this.#discard(instance);
      }
    }
  }

  /** Keeps one ready sandbox per slot; failures here are retried by the next job. */
  #refill(): void {
    while (!this.#closed && this.#spares.length + this.#preparing < this.#options.concurrency) {
      this.#preparing += 1;
      this.#prepareSpare()
        .then(
          (spare) => {
            if (this.#closed || !spare.instance.alive || spare.instance.retiring) return this.#disposeSpare(spare);
            this.#spares.push(spare);
          },
          () => undefined,
        )
        .finally(() => {
          this.#preparing -= 1;
        });
    }
  }

  async #disposeSpare(spare: Spare): Promise<void> {
    await this.#closeContext(spare.prepared.context, spare.instance).catch(() => undefined);
    await spare.prepared.dispose().catch(() => undefined);
  }

  async #closeContext(context: BrowserContext, instance: BrowserInstance): Promise<void> {
    if (!instance.alive) return;
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      context.close().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CONTEXT_CLOSE_MS))),
    ]);
    clearTimeout(timer);
    // a context that cannot be closed may still hold a runaway page: replace the whole browser
    if (!closed && instance.alive) {
      this.#discard(instance);
      void instance.stop();
    }
  }

  #afterJob(instance: BrowserInstance): void {
    if (!instance.retiring && instance.renders >= this.#options.restartAfter) {
      this.#discard(instance);
      this.#warmUp();
    }
    // drained: the retired browser has no job left and can go
    if (instance.retiring && instance.inFlight === 0) {
      this.#instances.delete(instance);
      void instance.stop();
    }
  }

  /** Takes the instance out of rotation; running jobs finish on it (see #afterJob). */
  #discard(instance: BrowserInstance): void {
    instance.retiring = true;
    if (this.#current === instance) this.#current = null;
    for (const spare of this.#spares.filter((candidate) => candidate.instance === instance)) {
      this.#spares.splice(this.#spares.indexOf(spare), 1);
      void this.#disposeSpare(spare);
    }
  }

  #onDisconnect(instance: BrowserInstance): void {
    this.#discard(instance);
    this.#instances.delete(instance);
    this.#warmUp();
  }

  /** Starts the replacement browser ahead of the next job, so that job does not pay for launch. */
  #warmUp(): void {
    if (this.#closed) return;
    this.#browser()
      .then(() => this.#refill())
      .catch(() => undefined); // the next job retries and reports the failure
  }

  #browser(): Promise<BrowserInstance> {
    const current = this.#current;
    if (current?.alive && !current.retiring) return Promise.resolve(current);
    if (current) this.#discard(current);
    this.#launching ??= this.#launch().finally(() => {
      this.#launching = null;
    });
    return this.#launching;
  }

  async #launch(): Promise<BrowserInstance> {
    const instance = await BrowserInstance.launch({
      executablePath: this.#options.executablePath,
      launchTimeoutMs: this.#options.launchTimeoutMs,
      onDisconnect: (gone) => this.#onDisconnect(gone),
    });
    this.#launches += 1;
    if (this.#closed) {
      await instance.stop();
      throw new RenderError('internal_failure', 'renderer_closed');
    }
    this.#instances.add(instance);
    this.#current = instance;
    return instance;
  }
}

const LIVENESS_MS = 1_000;

/** One protocol round trip: a spare made ready earlier is only as good as its browser. */
async function answers(instance: BrowserInstance): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const alive = await Promise.race([
    instance.browser.version().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), LIVENESS_MS))),
  ]);
  clearTimeout(timer);
  return alive;
}

/** One timer per job; every step of the job races it. */
class Deadline {
  readonly #expired: Promise<never>;
  #timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number) {
    this.#expired = new Promise<never>((_, reject) => {
      this.#timer = setTimeout(() => reject(new RenderError('timeout', 'render_timeout', `render exceeded ${timeoutMs} ms`)), timeoutMs);
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

function asRenderError(error: unknown, instance: BrowserInstance): RenderError {
  if (isRenderError(error)) return error;
  if (!instance.alive) return new RenderError('renderer_failure', 'browser_crashed', 'the browser went away during the render', { cause: error });
  return new RenderError('renderer_failure', 'render_failed', 'the browser failed to render', { cause: error });
}
