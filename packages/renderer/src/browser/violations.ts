// What the isolation layers found during one job. The first finding fails the job at once (the
// render is raced against it) and wins over any error the interrupted render throws after it.
import { RenderError } from '../errors.ts';

export type ViolationCode = 'blocked_request' | 'unknown_asset';

export class Violations {
  #first: RenderError | null = null;
  /** what was seen, for logs; never part of a client-facing error */
  readonly seen: string[] = [];
  readonly #tripped: Promise<never>;
  #trip!: (error: RenderError) => void;

  constructor() {
    this.#tripped = new Promise<never>((_, reject) => (this.#trip = reject));
    this.#tripped.catch(() => undefined); // observed through guard(); never unhandled
  }

  get first(): RenderError | null {
    return this.#first;
  }

  /** A sandbox breach attempt: the job fails as unsafe_asset. */
  record(code: ViolationCode, what: string): void {
    this.fail(new RenderError('unsafe_asset', code, `sandbox refused: ${what.slice(0, 200)}`));
  }

  /** Any other reason the job must stop now (a failing asset resolver, say). */
  fail(error: RenderError): void {
    this.seen.push(error.message);
    if (this.#first) return;
    this.#first = error;
    this.#trip(error);
  }

  /** Runs work, stopping at the first violation; a violation outranks the work's own error. */
  async guard<T>(work: () => Promise<T>): Promise<T> {
    const running = work();
    running.catch(() => undefined); // when a violation wins, the abandoned work may still reject
    let result: T;
    try {
      result = await Promise.race([running, this.#tripped]);
    } catch (error) {
      throw this.#first ?? error;
    }
    if (this.#first) throw this.#first;
    return result;
  }
}
