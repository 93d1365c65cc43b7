// Concurrency cap with two FIFO queues: at most `size` renders hold a slot; a freed slot goes to
// the longest-waiting job that is not bulk, bulk jobs (group members) only when no other waits, so a batch
// queued in the pool never holds back a single render that arrives after it.
import { RenderError } from '../errors.ts';

interface Waiter {
  grant: () => void;
  refuse: (error: Error) => void;
}

export class Slots {
  readonly #size: number;
  #held = 0;
  #waiting: Waiter[] = [];
  #bulk: Waiter[] = [];
  #closed = false;

  constructor(size: number) {
    this.#size = Math.max(1, Math.floor(size));
  }

  get held(): number {
    return this.#held;
  }

  get queued(): number {
    return this.#waiting.length + this.#bulk.length;
  }

  /** Resolves with a release function once a slot is free. */
  acquire(bulk = false): Promise<() => void> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.#held += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#held -= 1;
          (this.#waiting.shift() ?? this.#bulk.shift())?.grant();
        });
      };
      if (this.#held < this.#size) grant();
      else (bulk ? this.#bulk : this.#waiting).push({ grant, refuse: reject });
    });
  }

  /** Refuses everyone still waiting; holders keep their slots until they release. */
  close(): void {
    this.#closed = true;
    for (const waiter of [...this.#waiting.splice(0), ...this.#bulk.splice(0)]) waiter.refuse(closedError());
  }
}

function closedError(): RenderError {
  return new RenderError('internal_failure', 'renderer_closed', 'the renderer is shutting down');
}
