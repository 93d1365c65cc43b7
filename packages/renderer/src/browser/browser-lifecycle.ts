// The browser lifecycle: one Chromium in rotation at a time, launched at start and again
// when the one in rotation is retired (recycled after N renders, crashed, unresponsive). A
// retired browser takes no new job; the jobs already on it finish, then it is stopped.
// Model: gotenberg's process supervisor.
import { RenderError, isRenderError } from '@svc/contracts';
import type { RendererLogger } from '../types.ts';
import { BrowserInstance } from './browser-instance.ts';
import { sweepStaleProfiles } from './stale-profiles.ts';

/** Why a browser was taken out of rotation. */
export type RetireReason = 'recycle' | 'crash' | 'unresponsive';

export interface BrowserLifecycleOptions {
  executablePath: string;
  /** renders after which a browser is replaced */
  restartAfter: number;
  launchTimeoutMs: number;
  logger: RendererLogger;
}

/** What the lifecycle tells the sandbox stock, which keeps sandboxes open in its browsers. */
export interface BrowserEvents {
  /** The browser left rotation: nothing made ready in it may serve a new job. */
  retired(instance: BrowserInstance): void;
  /** A replacement launched ahead of the next job is up: sandboxes can be made ready in it. */
  replaced(): void;
}

export class BrowserLifecycle {
  readonly #options: BrowserLifecycleOptions;
  readonly #events: BrowserEvents;
  readonly #instances = new Set<BrowserInstance>();
  #current: BrowserInstance | null = null;
  #launching: Promise<BrowserInstance> | null = null;
  #launches = 0;
  readonly #restarts: Record<RetireReason, number> = { recycle: 0, crash: 0, unresponsive: 0 };
  #crashes = 0;
  /** why the browser the next launch replaces was retired, for the restart's log line */
  #replacing: { reason: RetireReason; pid: number | null } | null = null;
  #closed = false;

  constructor(options: BrowserLifecycleOptions, events: BrowserEvents) {
    this.#options = options;
    this.#events = events;
  }

  /** Clears what browsers of an earlier process left behind, then launches the first browser. */
  async start(): Promise<void> {
    await sweepStaleProfiles();
    await this.current();
  }

  /** The browser in rotation, if any (it may have died without reporting it yet). */
  get inRotation(): BrowserInstance | null {
    return this.#current;
  }

  get launches(): number {
    return this.#launches;
  }

  get restarts(): Record<RetireReason, number> {
    return { ...this.#restarts };
  }

  get crashes(): number {
    return this.#crashes;
  }

  /** The browser in rotation, launching a new one when it is gone or retired. */
  current(): Promise<BrowserInstance> {
    const current = this.#current;
    if (current?.alive && !current.retiring) return Promise.resolve(current);
    if (current) this.retire(current, 'crash');
    this.#launching ??= this.#launch().finally(() => {
      this.#launching = null;
    });
    return this.#launching;
  }

  /** Counts a job on its browser, so a drain does not stop the browser under it. */
  claim(instance: BrowserInstance): void {
    instance.inFlight += 1;
  }

  /** A job that ran on the browser ended: it counts towards the recycle. */
  jobEnded(instance: BrowserInstance): void {
    instance.inFlight -= 1;
    instance.renders += 1;
    this.#afterJob(instance);
  }

  /** A claim given back without a job having run (its sandbox opened too late). */
  unclaim(instance: BrowserInstance): void {
    instance.inFlight -= 1;
    this.#afterJob(instance);
  }

  /** Takes the browser out of rotation; running jobs finish on it, then it is stopped. */
  retire(instance: BrowserInstance, reason: RetireReason): void {
    if (!instance.retiring) this.#options.logger.info('browser retired', { pid: instance.pid, reason, renders: instance.renders });
    instance.retiring = true;
    if (this.#current === instance) {
      this.#current = null;
      this.#replacing = { reason, pid: instance.pid };
    }
    this.#events.retired(instance);
  }

  /** Retires a browser that stopped answering and stops it now: what runs on it may be a runaway page. */
  abandon(instance: BrowserInstance): void {
    this.retire(instance, 'unresponsive');
    void instance.stop();
  }

  /** From now on no browser is launched (see close). */
  stopLaunching(): void {
    this.#closed = true;
  }

  /** Stops every browser, once a launch under way has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#launching?.catch(() => undefined);
    this.#current = null;
    await Promise.all([...this.#instances].map((instance) => instance.stop()));
    this.#instances.clear();
    this.#options.logger.info('renderer closed', { launches: this.#launches });
  }

  #afterJob(instance: BrowserInstance): void {
    if (!instance.retiring && instance.renders >= this.#options.restartAfter) {
      this.retire(instance, 'recycle');
      this.#warmUp();
    }
    // drained: the retired browser has no job left and can go
    if (instance.retiring && instance.inFlight === 0) {
      this.#instances.delete(instance);
      void instance.stop();
    }
  }

  #onDisconnect(instance: BrowserInstance): void {
    // close() never reaches here: this browser went away on its own (crash, OOM kill, signal)
    this.#options.logger.error('browser crashed', { pid: instance.pid, renders: instance.renders, inFlight: instance.inFlight });
    this.#crashes += 1;
    this.retire(instance, 'crash');
    this.#instances.delete(instance);
    this.#warmUp();
  }

  /** Starts the replacement browser ahead of the next job, so that job does not pay for launch. */
  #warmUp(): void {
    if (this.#closed) return;
    this.current()
      .then(() => this.#events.replaced())
      .catch(() => undefined); // the next job retries and reports the failure
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

/** What a failure inside a browser becomes: a crash when the browser is gone, else a failed render. */
export function browserFailure(error: unknown, instance: BrowserInstance): RenderError {
  if (isRenderError(error)) return error;
  if (!instance.alive) return new RenderError('renderer_failure', 'browser_crashed', 'the browser went away during the render', { cause: error });
  return new RenderError('renderer_failure', 'render_failed', 'the browser failed to render', { cause: error });
}
