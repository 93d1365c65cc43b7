// Concurrency cap with a FIFO queue: at most `size` renders hold a slot, the rest wait in order.
import { RenderError } from '../errors.ts';

export class Slots {
  readonly #size: number;
  #held = 0;
  #waiting: { grant: () => void; refuse: (error: Error) => void }[] = [];
  #closed = false;

  constructor(size: number) {
    this.#size = Math.max(1, Math.floor(size));
  }

  get held(): number {
    return this.#held;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  /** Resolves with a release function once a slot is free. */
  acquire(): Promise<() => void> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.#held += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#held -= 1;
          this.#waiting.shift()?.grant();
        });
      };
      if (this.#held < this.#size) grant();
      else this.#waiting.push({ grant, refuse: reject });
    });
  }

  /** Refuses everyone still waiting; holders keep their slots until they release. */
  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiting.splice(0)) waiter.refuse(closedError());
  }
}

function closedError(): RenderError {
  return new RenderError('internal_failure', 'renderer_closed', 'the renderer is shutting down');
}
