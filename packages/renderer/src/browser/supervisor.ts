// The browser pool: one warm Chromium, a concurrency cap with a queue, a browser context per
// account (a fresh one, or a warm one that served the same account and was reset), a hard
// per-job deadline, and a replacement browser after N renders or a crash.
// Model: gotenberg's supervisor.
import type { Browser, BrowserContext } from 'puppeteer-core';
import { RenderError, isRenderError } from '@svc/contracts';
import type { RendererLogger, RendererStatus } from '../types.ts';
import { BrowserInstance } from './browser-instance.ts';
import { Slots } from './slots.ts';
import { sweepStaleProfiles } from './stale-profiles.ts';
import { type WarmLimits, WarmSandboxes } from './warm-sandboxes.ts';

/**
 * A job's sandbox made ready before the job arrives: a fresh browser context (never used by
 * another account) with whatever the sandbox layer set up in it. `dispose` frees what is
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
  /**
   * Returns a sandbox whose job ended well to the state `prepare` left it in, and proves it;
   * false (or a throw) means it cannot be reset and is closed.
   */
  reset: (prepared: Prepared) => Promise<boolean>;
  warm: WarmLimits;
  logger: RendererLogger;
}

/** Why a browser was taken out of rotation. */
type RetireReason = 'recycle' | 'crash' | 'unresponsive';

export interface JobOptions {
  timeoutMs: number;
  /** The isolation boundary (the account): only its own jobs may reuse a sandbox it used. */
  tenant: string;
  /** bulk work (group members) is granted a free slot only when no other job waits */
  bulk?: boolean;
}

interface Spare {
  instance: BrowserInstance;
  prepared: Prepared;
  jobs: number;
  openedAt: number;
}

/** A reset that takes longer than this counts as failed: the sandbox is closed instead. */
const RESET_MS = 2_000;

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
  readonly #restarts: Record<RetireReason, number> = { recycle: 0, crash: 0, unresponsive: 0 };
  #crashes = 0;
  /** why the browser the next launch replaces was retired, for the restart's log line */
  #replacing: { reason: RetireReason; pid: number | null } | null = null;
  #closed = false;
  /** Sandboxes made ready ahead of jobs: opening a context and its page is most of a job's overhead. */
  readonly #spares: Spare[] = [];
  #preparing = 0;
  readonly #warm: WarmSandboxes<Spare>;
  /** Resets under way, by account: the account's next job waits for one rather than open another sandbox. */
  readonly #resetting = new Map<string, Promise<boolean>>();

  private constructor(options: SupervisorOptions) {
    this.#options = options;
    this.#slots = new Slots(options.concurrency);
    this.#warm = new WarmSandboxes(options.warm);
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
      slots: this.#options.concurrency,
      warmSandboxes: this.#warm.size,
      spareSandboxes: this.#spares.length,
      restarts: { ...this.#restarts },
      crashes: this.#crashes,
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
    const idle = [...this.#spares.splice(0), ...this.#warm.removeWhere(() => true)];
    await Promise.allSettled(idle.map((spare) => this.#disposeSpare(spare)));
    await this.#launching?.catch(() => undefined);
    this.#current = null;
    await Promise.all([...this.#instances].map((instance) => instance.stop()));
    this.#instances.clear();
    this.#options.logger.info('renderer closed', { launches: this.#launches });
  }

  async #runJob<T>(
    job: JobOptions,
    work: (prepared: Prepared) => Promise<T>,
    settle: { resolve: (value: T) => void; reject: (error: unknown) => void },
  ): Promise<void> {
    const release = await this.#slots.acquire(job.bulk === true).catch((error: unknown) => {
      settle.reject(error);
      return null;
    });
    if (!release) return;
    // the deadline starts with the slot: opening the context counts, waiting in the queue does not
    const deadline = new Deadline(job.timeoutMs);
    try {
      if (this.#closed) throw new RenderError('internal_failure', 'renderer_closed');
      const opening = this.#take(job.tenant);
      const spare = await deadline.race(opening).catch((error: unknown) => {
        // a sandbox that opens after all is nobody's: close it, and give back its claim on the browser
        opening
          .then(
            (late) =>
              this.#disposeSpare(late).finally(() => {
                late.instance.inFlight -= 1;
                this.#afterJob(late.instance);
              }),
            () => undefined,
          )
          .catch(() => undefined);
        if (deadline.expired) this.#options.logger.warn('render timed out', { code: 'render_timeout', timeoutMs: job.timeoutMs, phase: 'opening the sandbox' });
        throw error;
      });
      // #take counted the job on its browser already (inFlight), so a drain cannot stop it now
      const { instance, prepared } = spare;
      // the next job's sandbox is prepared while this one renders
      this.#refill();
      let succeeded = false;
      try {
        settle.resolve(await deadline.race(work(prepared)));
        succeeded = true;
      } catch (error) {
        if (deadline.expired) this.#options.logger.warn('render timed out', { code: 'render_timeout', timeoutMs: job.timeoutMs, phase: 'rendering', pid: instance.pid });
        settle.reject(asRenderError(error, instance));
      } finally {
        deadline.clear();
        spare.jobs += 1;
        // only a sandbox whose job ended well is reset for its account; anything that failed
        // (crash, timeout, guard trip, any error) is closed, never handed on
        if (!(succeeded && (await this.#keepWarm(job.tenant, spare)))) {
          await this.#closeContext(prepared.context, instance);
          await prepared.dispose().catch(() => undefined);
        }
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

  /**
   * Resets a sandbox after a good job and keeps it for the same account, while it is young
   * enough and its browser stays in rotation. False: the caller closes it.
   */
  async #keepWarm(tenant: string, spare: Spare): Promise<boolean> {
    const { instance } = spare;
    if (this.#closed || !instance.alive || instance.retiring || !this.#warm.mayServeAgain(spare, performance.now())) return false;
    let timer: NodeJS.Timeout | undefined;
    const resetting = Promise.race([
      this.#options.reset(spare.prepared).catch(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), RESET_MS))),
    ]);
    this.#resetting.set(tenant, resetting);
    try {
      const reset = await resetting;
      clearTimeout(timer);
      if (!reset) {
        this.#options.logger.info('sandbox discarded', { pid: instance.pid, reason: 'it could not be reset' });
        return false;
      }
      if (this.#closed || !instance.alive || instance.retiring) return false;
      for (const evicted of this.#warm.put(tenant, spare)) void this.#disposeSpare(evicted);
      return true;
    } finally {
      if (this.#resetting.get(tenant) === resetting) this.#resetting.delete(tenant);
    }
  }

  /**
   * The account's warm sandbox on a live browser, else a ready one, else a new one; counted on
   * its browser (inFlight) in the same step that hands it out, so a retired browser whose last
   * other job ends meanwhile is not stopped under it.
   */
  async #take(tenant: string): Promise<Spare> {
    const claim = (spare: Spare) => {
      spare.instance.inFlight += 1;
      return spare;
    };
    const usable = (spare: Spare) => spare.instance.alive && !spare.instance.retiring;
    await this.#resetting.get(tenant);
    for (let warm = this.#warm.take(tenant); warm; warm = this.#warm.take(tenant)) {
      if (usable(warm)) return claim(warm);
      void this.#disposeSpare(warm);
    }
    while (this.#spares.length > 0) {
      const spare = this.#spares.shift() as Spare;
      // checked again after the round trip: the browser may have been retired meanwhile
      if (usable(spare) && (await answers(spare.instance)) && usable(spare)) return claim(spare);
      // a browser killed a moment ago may not have reported its disconnect yet
      if (!spare.instance.retiring && spare.instance.alive) this.#discard(spare.instance, 'unresponsive');
      this.#options.logger.info('sandbox discarded', { pid: spare.instance.pid, reason: 'its browser is gone or does not answer' });
      void this.#disposeSpare(spare);
    }
    return claim(await this.#prepareSpare());
  }

  async #prepareSpare(): Promise<Spare> {
    // one retry: a browser that died a moment ago may not have reported its disconnect yet
    for (let attempt = 0; ; attempt += 1) {
      const instance = await this.#browser();
      try {
        return { instance, prepared: await this.#options.prepare(instance.browser), jobs: 0, openedAt: performance.now() };
      } catch (error) {
        if (instance.alive || attempt > 0) throw asRenderError(error, instance);
        this.#discard(instance, 'crash');
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
      this.#options.logger.warn('browser context did not close', { pid: instance.pid, waitedMs: CONTEXT_CLOSE_MS });
      this.#discard(instance, 'unresponsive');
      void instance.stop();
    }
  }

  #afterJob(instance: BrowserInstance): void {
    if (!instance.retiring && instance.renders >= this.#options.restartAfter) {
      this.#discard(instance, 'recycle');
      this.#warmUp();
    }
    // drained: the retired browser has no job left and can go
    if (instance.retiring && instance.inFlight === 0) {
      this.#instances.delete(instance);
      void instance.stop();
    }
  }

  /** Takes the instance out of rotation; running jobs finish on it (see #afterJob). */
  #discard(instance: BrowserInstance, reason: RetireReason): void {
    if (!instance.retiring) this.#options.logger.info('browser retired', { pid: instance.pid, reason, renders: instance.renders });
    instance.retiring = true;
    if (this.#current === instance) {
      this.#current = null;
      this.#replacing = { reason, pid: instance.pid };
    }
    for (const spare of this.#spares.filter((candidate) => candidate.instance === instance)) {
      this.#spares.splice(this.#spares.indexOf(spare), 1);
      void this.#disposeSpare(spare);
    }
    for (const warm of this.#warm.removeWhere((candidate) => candidate.instance === instance)) void this.#disposeSpare(warm);
  }

  #onDisconnect(instance: BrowserInstance): void {
    // close() never reaches here: this browser went away on its own (crash, OOM kill, signal)
    this.#options.logger.error('browser crashed', { pid: instance.pid, renders: instance.renders, inFlight: instance.inFlight });
    this.#crashes += 1;
    this.#discard(instance, 'crash');
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
    if (current) this.#discard(current, 'crash');
    this.#launching ??= this.#launch().finally(() => {
      this.#launching = null;
    });
    return this.#launching;
  }

  async #launch(): Promise<BrowserInstance> {
    const { executablePath, logger } = this.#options;
    let instance: BrowserInstance;
    try {
      instance = await BrowserInstance.launch({
        executablePath,
        launchTimeoutMs: this.#options.launchTimeoutMs,
        onDisconnect: (gone) => this.#onDisconnect(gone),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      logger.error('browser launch failed', { executable: executablePath, error: cause });
      throw error;
    }
    this.#launches += 1;
    const replaced = this.#replacing;
    this.#replacing = null;
    if (replaced) {
      this.#restarts[replaced.reason] += 1;
      logger.info('browser restarted', { pid: instance.pid, executable: executablePath, reason: replaced.reason, previousPid: replaced.pid });
    } else logger.info('browser launched', { pid: instance.pid, executable: executablePath });
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

function asRenderError(error: unknown, instance: BrowserInstance): RenderError {
  if (isRenderError(error)) return error;
  if (!instance.alive) return new RenderError('renderer_failure', 'browser_crashed', 'the browser went away during the render', { cause: error });
  return new RenderError('renderer_failure', 'render_failed', 'the browser failed to render', { cause: error });
}
