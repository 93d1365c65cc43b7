// The stock of sandboxes: fresh ones made ready ahead of jobs (spares, one per slot: opening a
// context and its page is most of a job's overhead), and warm ones kept for the account they
// served. The isolation boundary is the account: a warm sandbox is only ever handed to jobs
// of the account it first served, and only after a reset that the sandbox layer verified.
// What a sandbox holds and does is the Sandbox's (sandbox.ts); the stock only opens them
// (Sandbox.open), keeps, hands out, resets, tidies and closes them.
import { withDeadline } from '@svc/deadline';
import type { RendererLogger } from '../types.ts';
import { type BrowserLifecycle, browserFailure } from './browser-lifecycle.ts';
import type { BrowserInstance } from './browser-instance.ts';
import { Sandbox } from './sandbox.ts';

export interface WarmLimits {
  /** idle warm sandboxes kept in all, across accounts (least recently used go first) */
  size: number;
  /** a sandbox is closed after this many jobs */
  maxJobs: number;
  /** ... or this long after it was opened */
  maxAgeMs: number;
}

export interface SandboxStockOptions {
  /** the pool's slots: one spare is kept ready for each */
  concurrency: number;
  warm: WarmLimits;
  /** where the stock's lines go, and the sandboxes' own (see Sandbox.open) */
  logger: RendererLogger;
}

/**
 * A sandbox in the stock or on loan to a job, with the browser it lives in. A sandbox whose
 * job ended well is reset (Sandbox.reset: false or a throw closes it) and, once idle for a
 * moment, tidied (Sandbox.tidy: the same); one whose job failed is halted, then closed.
 */
export interface StockedSandbox {
  instance: BrowserInstance;
  sandbox: Sandbox;
  /** jobs this sandbox has served, all of one account */
  jobs: number;
  /** when the sandbox was opened (ms, process clock) */
  openedAt: number;
  /** while it waits in the stock: when it will be tidied */
  tidyTimer?: NodeJS.Timeout;
  /** while it is being tidied: whether that went well */
  tidying?: Promise<boolean>;
}

/** A reset that takes longer than this counts as failed: the sandbox is closed instead. */
const RESET_MS = 2_000;

/** A failed job's page whose script has not been stopped in this time is left to the context's close. */
const HALT_MS = 2_000;

/** A context that does not close in this time belongs to a wedged browser, which is replaced. */
const CONTEXT_CLOSE_MS = 5_000;

/**
 * A warm sandbox idle this long is tidied. The account's next job often comes sooner, and a
 * sandbox evicted first is closed as it is: neither needs the tidying.
 */
const TIDY_AFTER_MS = 2_000;

/** A spare made ready earlier must answer a protocol round trip in this time to be handed out. */
const LIVENESS_MS = 1_000;

export class SandboxStock {
  readonly #options: SandboxStockOptions;
  readonly #browsers: BrowserLifecycle;
  readonly #spares: StockedSandbox[] = [];
  #preparing = 0;
  readonly #warm: WarmByAccount;
  /** Resets under way, by account: the account's next job waits for one rather than open another sandbox. */
  readonly #resetting = new Map<string, Promise<boolean>>();
  #closed = false;

  constructor(options: SandboxStockOptions, browsers: BrowserLifecycle) {
    this.#options = options;
    this.#browsers = browsers;
    this.#warm = new WarmByAccount(options.warm);
  }

  get warmCount(): number {
    return this.#warm.size;
  }

  get spareCount(): number {
    return this.#spares.length;
  }

  /**
   * The account's warm sandbox on a live browser, else a ready one, else a new one; claimed on
   * its browser in the same step that hands it out, so a retired browser whose last other job
   * ends meanwhile is not stopped under it.
   */
  async take(tenant: string): Promise<StockedSandbox> {
    await this.#resetting.get(tenant);
    for (let warm = this.#warm.take(tenant); warm; warm = this.#warm.take(tenant)) {
      clearTimeout(warm.tidyTimer);
      if ((await (warm.tidying ?? true)) && usable(warm)) return this.#claim(warm);
      void this.#dispose(warm);
    }
    while (this.#spares.length > 0) {
      const spare = this.#spares.shift() as StockedSandbox;
      // checked again after the round trip: the browser may have been retired meanwhile
      if (usable(spare) && (await answers(spare.instance)) && usable(spare)) return this.#claim(spare);
      // a browser killed a moment ago may not have reported its disconnect yet
      if (!spare.instance.retiring && spare.instance.alive) this.#browsers.retire(spare.instance, 'unresponsive');
      this.#options.logger.info('sandbox discarded', { pid: spare.instance.pid, reason: 'its browser is gone or does not answer' });
      void this.#dispose(spare);
    }
    return this.#claim(await this.#open());
  }

  /**
   * Takes back a sandbox whose job ended. One whose job ended well is reset and kept for its
   * account while it is young enough and its browser stays in rotation; anything that failed
   * (crash, timeout, guard trip, any error) is halted, then closed, never handed on: a page
   * still looping costs its renderer's core until its process ends, and nobody waits for it.
   * Then the job leaves its browser.
   */
  async giveBack(tenant: string, stocked: StockedSandbox, succeeded: boolean): Promise<void> {
    const { instance, sandbox } = stocked;
    stocked.jobs += 1;
    let kept = false;
    if (succeeded && !this.#closed && instance.alive && !instance.retiring && this.#warm.mayServeAgain(stocked, performance.now())) {
      const resetting = trueInTime(sandbox.reset(), RESET_MS);
      this.#resetting.set(tenant, resetting);
      try {
        const reset = await resetting;
        if (!reset) this.#options.logger.info('sandbox discarded', { pid: instance.pid, reason: 'it could not be reset' });
        else if (!this.#closed && instance.alive && !instance.retiring) {
          for (const evicted of this.#warm.put(tenant, stocked)) void this.#dispose(evicted);
          this.#tidyLater(stocked);
          kept = true;
        }
      } finally {
        if (this.#resetting.get(tenant) === resetting) this.#resetting.delete(tenant);
      }
    }
    if (!succeeded && instance.alive && !(await trueInTime(sandbox.halt(), HALT_MS))) {
      this.#options.logger.warn('page script did not stop', { pid: instance.pid, waitedMs: HALT_MS });
    }
    if (!kept) {
      await this.#closeContext(sandbox, instance);
      await sandbox.dispose().catch(() => undefined);
    }
    this.#browsers.jobEnded(instance);
  }

  /** A sandbox that opened after its job gave up on it is nobody's: it is closed and its claim given back. */
  discardLate(stocked: StockedSandbox): Promise<void> {
    return this.#dispose(stocked).finally(() => this.#browsers.unclaim(stocked.instance));
  }

  /** Keeps one ready sandbox per slot; failures here are retried by the next job. */
  refill(): void {
    while (!this.#closed && this.#spares.length + this.#preparing < this.#options.concurrency) {
      this.#preparing += 1;
      this.#open()
        .then(
          (spare) => {
            if (this.#closed || !usable(spare)) return this.#dispose(spare);
            this.#spares.push(spare);
          },
          () => undefined,
        )
        .finally(() => {
          this.#preparing -= 1;
        });
    }
  }

  /** Closes every sandbox kept in a browser that left rotation. */
  dropBrowser(instance: BrowserInstance): void {
    for (const spare of this.#spares.filter((candidate) => candidate.instance === instance)) {
      this.#spares.splice(this.#spares.indexOf(spare), 1);
      void this.#dispose(spare);
    }
    for (const warm of this.#warm.removeWhere((candidate) => candidate.instance === instance)) void this.#dispose(warm);
  }

  /** From now on no sandbox is made ready or kept (see closeIdle). */
  stopStocking(): void {
    this.#closed = true;
  }

  /** Closes every idle sandbox, spare or warm. */
  async closeIdle(): Promise<void> {
    this.#closed = true;
    const idle = [...this.#spares.splice(0), ...this.#warm.removeWhere(() => true)];
    await Promise.allSettled(idle.map((sandbox) => this.#dispose(sandbox)));
  }

  /** Tidies a kept sandbox once it has stayed idle for TIDY_AFTER_MS; one that fails it is closed. */
  #tidyLater(stocked: StockedSandbox): void {
    stocked.tidying = undefined;
    stocked.tidyTimer = setTimeout(() => {
      stocked.tidying = trueInTime(stocked.sandbox.tidy(), RESET_MS).then((tidied) => {
        if (!tidied && this.#warm.removeWhere((candidate) => candidate === stocked).length > 0) {
          this.#options.logger.info('sandbox discarded', { pid: stocked.instance.pid, reason: 'it could not be tidied' });
          void this.#dispose(stocked);
        }
        return tidied;
      });
    }, TIDY_AFTER_MS).unref();
  }

  #claim(stocked: StockedSandbox): StockedSandbox {
    this.#browsers.claim(stocked.instance);
    return stocked;
  }

  async #open(): Promise<StockedSandbox> {
    // one retry: a browser that died a moment ago may not have reported its disconnect yet
    for (let attempt = 0; ; attempt += 1) {
      const instance = await this.#browsers.current();
      try {
        return { instance, sandbox: await Sandbox.open(instance.browser, this.#options.logger), jobs: 0, openedAt: performance.now() };
      } catch (error) {
        if (instance.alive || attempt > 0) throw browserFailure(error, instance);
        this.#browsers.retire(instance, 'crash');
      }
    }
  }

  async #dispose({ instance, sandbox, tidyTimer }: StockedSandbox): Promise<void> {
    clearTimeout(tidyTimer);
    await this.#closeContext(sandbox, instance).catch(() => undefined);
    await sandbox.dispose().catch(() => undefined);
  }

  async #closeContext(sandbox: Sandbox, instance: BrowserInstance): Promise<void> {
    if (!instance.alive) return;
    const closed = await trueInTime(sandbox.context.close().then(() => true), CONTEXT_CLOSE_MS);
    // a context that cannot be closed may still hold a runaway page: replace the whole browser
    if (!closed && instance.alive) {
      this.#options.logger.warn('browser context did not close', { pid: instance.pid, waitedMs: CONTEXT_CLOSE_MS });
      this.#browsers.abandon(instance);
    }
  }
}

/** Whether the step answered true within ms: a throw or a late answer counts as false. */
function trueInTime(step: Promise<boolean>, ms: number): Promise<boolean> {
  return withDeadline(step.catch(() => false), ms, () => false);
}

function usable({ instance }: StockedSandbox): boolean {
  return instance.alive && !instance.retiring;
}

/** One protocol round trip: a spare made ready earlier is only as good as its browser. */
function answers(instance: BrowserInstance): Promise<boolean> {
  return trueInTime(instance.browser.version().then(() => true), LIVENESS_MS);
}

/** Idle warm sandboxes: a bounded LRU keyed by account, several per account when it runs jobs in parallel. */
class WarmByAccount {
  readonly #limits: WarmLimits;
  /** Map order is recency order: the first account is the least recently used */
  readonly #byAccount = new Map<string, StockedSandbox[]>();
  #count = 0;

  constructor(limits: WarmLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#count;
  }

  /** Whether a sandbox that just finished a job may be kept for another. */
  mayServeAgain(sandbox: StockedSandbox, now: number): boolean {
    return this.#limits.size > 0 && sandbox.jobs < this.#limits.maxJobs && now - sandbox.openedAt < this.#limits.maxAgeMs;
  }

  /** The account's most recently used idle sandbox, taken out of the pool. */
  take(account: string): StockedSandbox | undefined {
    const list = this.#byAccount.get(account);
    const sandbox = list?.pop();
    if (!list || !sandbox) return undefined;
    this.#count -= 1;
    if (list.length === 0) this.#byAccount.delete(account);
    return sandbox;
  }

  /** Keeps a reset sandbox for its account; returns the sandboxes evicted to stay within the size. */
  put(account: string, sandbox: StockedSandbox): StockedSandbox[] {
    const list = this.#byAccount.get(account) ?? [];
    this.#byAccount.delete(account);
    this.#byAccount.set(account, [...list, sandbox]);
    this.#count += 1;
    const evicted: StockedSandbox[] = [];
    while (this.#count > this.#limits.size) {
      const [oldest, oldestList] = this.#byAccount.entries().next().value as [string, StockedSandbox[]];
      evicted.push(oldestList.shift() as StockedSandbox);
      this.#count -= 1;
      if (oldestList.length === 0) this.#byAccount.delete(oldest);
    }
    return evicted;
  }

  /** Takes out every sandbox that matches (a retired browser's, or all of them). */
  removeWhere(matches: (sandbox: StockedSandbox) => boolean): StockedSandbox[] {
    const removed: StockedSandbox[] = [];
    for (const [account, list] of [...this.#byAccount]) {
      const kept = list.filter((sandbox) => !matches(sandbox));
      removed.push(...list.filter(matches));
      if (kept.length > 0) this.#byAccount.set(account, kept);
      else this.#byAccount.delete(account);
    }
    this.#count -= removed.length;
    return removed;
  }
}
