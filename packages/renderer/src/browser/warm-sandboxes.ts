// Idle sandboxes that served an account before, kept warm for that account's next job. The
// isolation boundary is the account: a sandbox is only ever handed to jobs of the account it
// first served, and only after a reset that the sandbox layer verified.

/** What the pool needs to know of a sandbox to decide whether it may serve again. */
export interface WarmEntry {
  /** jobs this sandbox has served, all of one account */
  jobs: number;
  /** when the sandbox was opened (ms, process clock) */
  openedAt: number;
}

export interface WarmLimits {
  /** idle warm sandboxes kept in all, across accounts (least recently used go first) */
  size: number;
  /** a sandbox is closed after this many jobs */
  maxJobs: number;
  /** ... or this long after it was opened */
  maxAgeMs: number;
}

/** A bounded LRU of idle sandboxes keyed by account; several per account when it runs jobs in parallel. */
export class WarmSandboxes<S extends WarmEntry> {
  readonly #limits: WarmLimits;
  /** Map order is recency order: the first account is the least recently used */
  readonly #byAccount = new Map<string, S[]>();
  #count = 0;

  constructor(limits: WarmLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#count;
  }

  /** Whether a sandbox that just finished a job may be kept for another. */
  mayServeAgain(entry: WarmEntry, now: number): boolean {
    return this.#limits.size > 0 && entry.jobs < this.#limits.maxJobs && now - entry.openedAt < this.#limits.maxAgeMs;
  }

  /** The account's most recently used idle sandbox, taken out of the pool. */
  take(account: string): S | undefined {
    const list = this.#byAccount.get(account);
    const entry = list?.pop();
    if (!list || !entry) return undefined;
    this.#count -= 1;
    if (list.length === 0) this.#byAccount.delete(account);
    return entry;
  }

  /** Keeps a reset sandbox for its account; returns the sandboxes evicted to stay within the size. */
  put(account: string, entry: S): S[] {
    const list = this.#byAccount.get(account) ?? [];
    this.#byAccount.delete(account);
    this.#byAccount.set(account, [...list, entry]);
    this.#count += 1;
    const evicted: S[] = [];
    while (this.#count > this.#limits.size) {
      const [oldest, oldestList] = this.#byAccount.entries().next().value as [string, S[]];
      evicted.push(oldestList.shift() as S);
      this.#count -= 1;
      if (oldestList.length === 0) this.#byAccount.delete(oldest);
    }
    return evicted;
  }

  /** Takes out every sandbox that matches (a retired browser's, or all of them). */
  removeWhere(matches: (entry: S) => boolean): S[] {
    const removed: S[] = [];
    for (const [account, list] of [...this.#byAccount]) {
      const kept = list.filter((entry) => !matches(entry));
      removed.push(...list.filter(matches));
      if (kept.length > 0) this.#byAccount.set(account, kept);
      else this.#byAccount.delete(account);
    }
    this.#count -= removed.length;
    return removed;
  }
}
