// Work raced against a clock, the one way every package does it: the timer is cleared as soon
// as the work settles, so a finished race leaves nothing that keeps the process alive or fires
// late. No dependencies: the renderer, the database layer, core and the apps all use it.

/**
 * What `work` settles to, or what `late()` answers (or throws) once `ms` have passed first.
 * A rejection of `work` is passed on; a rejection after the deadline won is ignored.
 */
export async function withDeadline<T, L>(work: PromiseLike<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(resolve, ms, 'expired')));
  const settled = Promise.resolve(work);
  settled.catch(() => undefined);
  try {
    const first = await Promise.race([settled.then((value) => ({ value })), expired]);
    return first === 'expired' ? late() : first.value;
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves after `ms`. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * One clock for several steps: each step raced against the same deadline fails with the
 * error `expire` makes once the time is up (a job's timeout, counted from its start).
 */
export class Deadline {
  readonly #expired: Promise<never>;
  #timer: NodeJS.Timeout | undefined;
  #passed = false;

  constructor(ms: number, expire: () => Error) {
    this.#expired = new Promise<never>((_, reject) => {
      this.#timer = setTimeout(() => {
        this.#passed = true;
        reject(expire());
      }, ms);
    });
    this.#expired.catch(() => undefined);
  }

  /** Whether the time is up. */
  get passed(): boolean {
    return this.#passed;
  }

  /** The step's answer, or the deadline's error if it comes first (the step's later rejection is ignored). */
  race<T>(step: PromiseLike<T>): Promise<T> {
    const settled = Promise.resolve(step);
    settled.catch(() => undefined);
    return Promise.race([settled, this.#expired]);
  }

  /** Stops the clock. */
  clear(): void {
    clearTimeout(this.#timer);
  }
}
