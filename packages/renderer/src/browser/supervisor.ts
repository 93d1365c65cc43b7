// The browser pool: one warm Chromium, a concurrency cap with a queue, one fresh browser context
// per job, a hard per-job deadline, and a replacement browser after N renders or a crash.
// Model: gotenberg's supervisor.
import type { BrowserContext, BrowserContextOptions } from 'puppeteer-core';
import { RenderError, isRenderError } from '../errors.ts';
import type { RendererStatus } from '../types.ts';
import { BrowserInstance } from './browser-instance.ts';
import { Slots } from './slots.ts';
import { sweepStaleProfiles } from './stale-profiles.ts';

export interface SupervisorOptions {
  executablePath: string;
  concurrency: number;
  restartAfter: number;
  launchTimeoutMs: number;
}

export interface JobOptions {
  timeoutMs: number;
  context: BrowserContextOptions;
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

  private constructor(options: SupervisorOptions) {
    this.#options = options;
    this.#slots = new Slots(options.concurrency);
  }

  static async start(options: SupervisorOptions): Promise<Supervisor> {
    const supervisor = new Supervisor(options);
    await sweepStaleProfiles();
    await supervisor.#browser();
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

  /** Runs `work` in a fresh browser context that is closed afterwards, whatever happens. */
  withContext<T>(job: JobOptions, work: (context: BrowserContext) => Promise<T>): Promise<T> {
    const running = this.#runJob(job, work);
    this.#jobs.add(running);
    const forget = () => this.#jobs.delete(running);
    running.then(forget, forget);
    return running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#slots.close();
    await Promise.allSettled([...this.#jobs]);
    await this.#launching?.catch(() => undefined);
    this.#current = null;
    await Promise.all([...this.#instances].map((instance) => instance.stop()));
    this.#instances.clear();
  }

  async #runJob<T>(job: JobOptions, work: (context: BrowserContext) => Promise<T>): Promise<T> {
    const release = await this.#slots.acquire();
    // the deadline starts with the slot: opening the context counts, waiting in the queue does not
    const deadline = new Deadline(job.timeoutMs);
    try {
      if (this.#closed) throw new RenderError('internal_failure', 'renderer_closed');
      const opening = this.#openContext(job.context);
      const { instance, context } = await deadline.race(opening).catch((error: unknown) => {
        // a context that opens after all is nobody's: close it
        opening.then(({ context: late }) => late.close(), () => undefined).catch(() => undefined);
        throw error;
      });
      instance.inFlight += 1;
      try {
        return await deadline.race(work(context));
      } catch (error) {
        throw asRenderError(error, instance);
      } finally {
        await this.#closeContext(context, instance);
        instance.inFlight -= 1;
        instance.renders += 1;
        this.#afterJob(instance);
      }
    } finally {
      deadline.clear();
      release();
    }
  }

  async #openContext(options: BrowserContextOptions): Promise<{ instance: BrowserInstance; context: BrowserContext }> {
    // one retry: a browser that died a moment ago may not have reported its disconnect yet
    for (let attempt = 0; ; attempt += 1) {
      const instance = await this.#browser();
      try {
        return { instance, context: await instance.browser.createBrowserContext(options) };
      } catch (error) {
        if (instance.alive || attempt > 0) throw asRenderError(error, instance);
        this.#discard(instance);
      }
    }
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
  }

  #onDisconnect(instance: BrowserInstance): void {
    this.#discard(instance);
    this.#instances.delete(instance);
    this.#warmUp();
  }

  /** Starts the replacement browser ahead of the next job, so that job does not pay for launch. */
  #warmUp(): void {
    if (this.#closed) return;
    this.#browser().catch(() => undefined); // the next job retries and reports the failure
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
