// The stock of sandboxes: fresh ones made ready ahead of jobs (spares, one per slot: opening a
// context and its page is most of a job's overhead), and warm ones kept for the account they
// served. The isolation boundary is the account: a warm sandbox is only ever handed to jobs
// of the account it first served, and only after a reset that the sandbox layer verified.
// What a sandbox holds is the sandbox layer's (sandbox.ts); the stock only opens, keeps,
// hands out, resets and closes them.
import type { Browser, BrowserContext } from 'puppeteer-core';
import type { RendererLogger } from '../types.ts';
import { type BrowserLifecycle, browserFailure } from './browser-lifecycle.ts';
import type { BrowserInstance } from './browser-instance.ts';

/**
 * A job's sandbox made ready before the job arrives: a fresh browser context (never used by
 * another account) with whatever the sandbox layer set up in it. `halt` ends by force what
 * the sandbox still runs (true once it has ended); `dispose` frees what is not part of the
 * context (it runs after the context is closed).
 */
export interface Prepared<E = unknown> {
  context: BrowserContext;
  extra: E;
  halt(): Promise<boolean>;
  dispose(): Promise<void>;
}

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
  /** Builds one sandbox in a browser. */
  prepare: (browser: Browser) => Promise<Prepared>;
  /**
   * Returns a sandbox whose job ended well to the state `prepare` left it in, and proves it;
   * false (or a throw) means it cannot be reset and is closed.
   */
  reset: (prepared: Prepared) => Promise<boolean>;
  /**
   * What a reset may leave to do while the sandbox stays idle (the last job's document
   * emptied), run once it has been idle for a moment; false (or a throw) closes it.
   */
  tidy?: (prepared: Prepared) => Promise<boolean>;
  warm: WarmLimits;
  logger: RendererLogger;
}

/** A sandbox in the stock or on loan to a job, with the browser it lives in. */
export interface Sandbox {
  instance: BrowserInstance;
  prepared: Prepared;
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
  readonly #spares: Sandbox[] = [];
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
  async take(tenant: string): Promise<Sandbox> {
    await this.#resetting.get(tenant);
    for (let warm = this.#warm.take(tenant); warm; warm = this.#warm.take(tenant)) {
      clearTimeout(warm.tidyTimer);
      if ((await (warm.tidying ?? true)) && usable(warm)) return this.#claim(warm);
      void this.#dispose(warm);
    }
    while (this.#spares.length > 0) {
      const spare = this.#spares.shift() as Sandbox;
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
  async giveBack(tenant: string, sandbox: Sandbox, succeeded: boolean): Promise<void> {
    const { instance, prepared } = sandbox;
    sandbox.jobs += 1;
    let kept = false;
    if (succeeded && !this.#closed && instance.alive && !instance.retiring && this.#warm.mayServeAgain(sandbox, performance.now())) {
      const resetting = withDeadline(this.#options.reset(prepared), RESET_MS);
      this.#resetting.set(tenant, resetting);
      try {
        const reset = await resetting;
        if (!reset) this.#options.logger.info('sandbox discarded', { pid: instance.pid, reason: 'it could not be reset' });
        else if (!this.#closed && instance.alive && !instance.retiring) {
          for (const evicted of this.#warm.put(tenant, sandbox)) void this.#dispose(evicted);
          this.#tidyLater(sandbox);
          kept = true;
        }
      } finally {
        if (this.#resetting.get(tenant) === resetting) this.#resetting.delete(tenant);
      }
    }
    if (!succeeded && instance.alive && !(await withDeadline(prepared.halt(), HALT_MS))) {
      this.#options.logger.warn('page script did not stop', { pid: instance.pid, waitedMs: HALT_MS });
    }
    if (!kept) {
      await this.#closeContext(prepared.context, instance);
      await prepared.dispose().catch(() => undefined);
    }
    this.#browsers.jobEnded(instance);
  }

  /** A sandbox that opened after its job gave up on it is nobody's: it is closed and its claim given back. */
  discardLate(sandbox: Sandbox): Promise<void> {
    return this.#dispose(sandbox).finally(() => this.#browsers.unclaim(sandbox.instance));
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
  #tidyLater(sandbox: Sandbox): void {
    const { tidy } = this.#options;
    if (!tidy) return;
    sandbox.tidying = undefined;
    sandbox.tidyTimer = setTimeout(() => {
      sandbox.tidying = withDeadline(tidy(sandbox.prepared), RESET_MS).then((tidied) => {
        if (!tidied && this.#warm.removeWhere((candidate) => candidate === sandbox).length > 0) {
          this.#options.logger.info('sandbox discarded', { pid: sandbox.instance.pid, reason: 'it could not be tidied' });
          void this.#dispose(sandbox);
        }
        return tidied;
      });
    }, TIDY_AFTER_MS).unref();
  }

  #claim(sandbox: Sandbox): Sandbox {
    this.#browsers.claim(sandbox.instance);
    return sandbox;
  }

  async #open(): Promise<Sandbox> {
    // one retry: a browser that died a moment ago may not have reported its disconnect yet
    for (let attempt = 0; ; attempt += 1) {
      const instance = await this.#browsers.current();
      try {
        return { instance, prepared: await this.#options.prepare(instance.browser), jobs: 0, openedAt: performance.now() };
      } catch (error) {
        if (instance.alive || attempt > 0) throw browserFailure(error, instance);
        this.#browsers.retire(instance, 'crash');
      }
    }
  }

  async #dispose(sandbox: Sandbox): Promise<void> {
    clearTimeout(sandbox.tidyTimer);
    await this.#closeContext(sandbox.prepared.context, sandbox.instance).catch(() => undefined);
    await sandbox.prepared.dispose().catch(() => undefined);
  }

  async #closeContext(context: BrowserContext, instance: BrowserInstance): Promise<void> {
    if (!instance.alive) return;
    const closed = await withDeadline(context.close().then(() => true), CONTEXT_CLOSE_MS);
    // a context that cannot be closed may still hold a runaway page: replace the whole browser
    if (!closed && instance.alive) {
      this.#options.logger.warn('browser context did not close', { pid: instance.pid, waitedMs: CONTEXT_CLOSE_MS });
      this.#browsers.abandon(instance);
    }
  }
}

/** What the work answers, false if it throws or takes longer than ms. */
async function withDeadline(work: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const answer = await Promise.race([work.catch(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  clearTimeout(timer);
  return answer;
}

function usable(sandbox: Sandbox): boolean {
  return sandbox.instance.alive && !sandbox.instance.retiring;
}

/** One protocol round trip: a spare made ready earlier is only as good as its browser. */
function answers(instance: BrowserInstance): Promise<boolean> {
  return withDeadline(instance.browser.version().then(() => true), LIVENESS_MS);
}

/** Idle warm sandboxes: a bounded LRU keyed by account, several per account when it runs jobs in parallel. */
class WarmByAccount {
  readonly #limits: WarmLimits;
  /** Map order is recency order: the first account is the least recently used */
  readonly #byAccount = new Map<string, Sandbox[]>();
  #count = 0;

  constructor(limits: WarmLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#count;
  }

  /** Whether a sandbox that just finished a job may be kept for another. */
  mayServeAgain(sandbox: Sandbox, now: number): boolean {
    return this.#limits.size > 0 && sandbox.jobs < this.#limits.maxJobs && now - sandbox.openedAt < this.#limits.maxAgeMs;
  }

  /** The account's most recently used idle sandbox, taken out of the pool. */
  take(account: string): Sandbox | undefined {
    const list = this.#byAccount.get(account);
    const sandbox = list?.pop();
    if (!list || !sandbox) return undefined;
    this.#count -= 1;
    if (list.length === 0) this.#byAccount.delete(account);
    return sandbox;
  }

  /** Keeps a reset sandbox for its account; returns the sandboxes evicted to stay within the size. */
  put(account: string, sandbox: Sandbox): Sandbox[] {
    const list = this.#byAccount.get(account) ?? [];
    this.#byAccount.delete(account);
    this.#byAccount.set(account, [...list, sandbox]);
    this.#count += 1;
    const evicted: Sandbox[] = [];
    while (this.#count > this.#limits.size) {
      const [oldest, oldestList] = this.#byAccount.entries().next().value as [string, Sandbox[]];
      evicted.push(oldestList.shift() as Sandbox);
      this.#count -= 1;
      if (oldestList.length === 0) this.#byAccount.delete(oldest);
    }
    return evicted;
  }

  /** Takes out every sandbox that matches (a retired browser's, or all of them). */
  removeWhere(matches: (sandbox: Sandbox) => boolean): Sandbox[] {
    const removed: Sandbox[] = [];
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
