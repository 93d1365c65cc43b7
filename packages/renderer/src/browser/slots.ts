// Concurrency cap with two FIFO queues: at most `size` renders hold a slot. Single renders go
// first: a freed slot goes to the longest-waiting single render. Bulk work (group members)
// starts only while no single render holds or waits for a slot, and holds at most all but one
// slot, so a single render that arrives finds a slot free and shares the machine with at most
// the bulk renders already under way. Bulk never stops for good: it goes on between singles.
import { RenderError } from '../errors.ts';

interface Waiter {
  grant: () => void;
  refuse: (error: Error) => void;
}

export class Slots {
  readonly #size: number;
  readonly #bulkLimit: number;
  #singlesHeld = 0;
  #bulkHeld = 0;
  #waiting: Waiter[] = [];
  #bulk: Waiter[] = [];
  #closed = false;

  constructor(size: number) {
    this.#size = Math.max(1, Math.floor(size));
    this.#bulkLimit = Math.max(1, this.#size - 1);
  }

  get held(): number {
    return this.#singlesHeld + this.#bulkHeld;
  }

  get queued(): number {
    return this.#waiting.length + this.#bulk.length;
  }

  /** Resolves with a release function once a slot is free. */
  acquire(bulk = false): Promise<() => void> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      const grant = () => {
        if (bulk) this.#bulkHeld += 1;
        else this.#singlesHeld += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          if (bulk) this.#bulkHeld -= 1;
          else this.#singlesHeld -= 1;
          this.#pump();
        });
      };
      (bulk ? this.#bulk : this.#waiting).push({ grant, refuse: reject });
      this.#pump();
    });
  }

  /** Refuses everyone still waiting; holders keep their slots until they release. */
  close(): void {
    this.#closed = true;
    for (const waiter of [...this.#waiting.splice(0), ...this.#bulk.splice(0)]) waiter.refuse(closedError());
  }

  #pump(): void {
    while (this.held < this.#size && this.#waiting.length > 0) this.#waiting.shift()!.grant();
    while (this.held < this.#size && this.#bulk.length > 0 && this.#bulkMayStart()) this.#bulk.shift()!.grant();
  }

  #bulkMayStart(): boolean {
    return this.#singlesHeld === 0 && this.#waiting.length === 0 && this.#bulkHeld < this.#bulkLimit;
  }
}

function closedError(): RenderError {
  return new RenderError('internal_failure', 'renderer_closed', 'the renderer is shutting down');
}
