// Concurrency cap with two FIFO queues: at most `size` renders hold a slot. Single renders go
// first: a freed slot goes to the longest-waiting single render. Bulk work (group members)
// yields to them:
// - it starts only while no single render holds or waits for a slot, and not within a short
//   grace after one ended (a caller that sends renders one after another sends its next in that
//   moment), so single renders rarely share the machine with a bulk render;
// - it holds at most all but one slot, so a single render that arrives finds a slot free, with
//   one exception that keeps the browser busy: when no single render has held or waited for a
//   slot for `quietMs` and the last bulk render ended within `shortBulkMs`, bulk work may take
//   every slot (a single render that then arrives waits for one short bulk render, and bulk is
//   held to all but one slot again from then on);
// - a bulk job that has waited `agingMs` starts as soon as a slot and its bulk share allow,
//   single renders or not, so a stream of single renders slows a batch but never stops it.
import { RenderError } from '@svc/contracts';

interface Waiter {
  grant: () => void;
  refuse: (error: Error) => void;
  since: number;
}

export interface SlotsOptions {
  /** After a single render ends, bulk work waits this long for the next one (ms). */
  graceMs?: number;
  /** A bulk job that has waited this long no longer yields to single renders (ms). */
  agingMs?: number;
  /** With no single render for this long, bulk work may take every slot (ms)... */
  quietMs?: number;
  /** ...while its last render held its slot no longer than this (ms). */
  shortBulkMs?: number;
  now?: () => number;
}

export class Slots {
  readonly #size: number;
  readonly #bulkLimit: number;
  readonly #graceMs: number;
  readonly #agingMs: number;
  readonly #quietMs: number;
  readonly #shortBulkMs: number;
  readonly #now: () => number;
  #singlesHeld = 0;
  #bulkHeld = 0;
  #lastSingleEnd = Number.NEGATIVE_INFINITY;
  /** When a single render last asked for, held or gave back a slot. */
  #lastSingleSeen = Number.NEGATIVE_INFINITY;
  /** How long the last bulk render held its slot (ms). */
  #lastBulkHold = Number.POSITIVE_INFINITY;
  #waiting: Waiter[] = [];
  #bulk: Waiter[] = [];
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(size: number, options: SlotsOptions = {}) {
    this.#size = Math.max(1, Math.floor(size));
    this.#bulkLimit = Math.max(1, this.#size - 1);
    this.#graceMs = options.graceMs ?? 50;
    this.#agingMs = options.agingMs ?? 500;
    this.#quietMs = options.quietMs ?? 1_000;
    this.#shortBulkMs = options.shortBulkMs ?? 250;
    this.#now = options.now ?? (() => performance.now());
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
        const granted = this.#now();
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          if (bulk) {
            this.#bulkHeld -= 1;
            this.#lastBulkHold = this.#now() - granted;
          } else {
            this.#singlesHeld -= 1;
            this.#lastSingleEnd = this.#lastSingleSeen = this.#now();
          }
          this.#pump();
        });
      };
      if (!bulk) this.#lastSingleSeen = this.#now();
      (bulk ? this.#bulk : this.#waiting).push({ grant, refuse: reject, since: this.#now() });
      this.#pump();
    });
  }

  /** Refuses everyone still waiting; holders keep their slots until they release. */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    for (const waiter of [...this.#waiting.splice(0), ...this.#bulk.splice(0)]) waiter.refuse(closedError());
  }

  #pump(): void {
    while (this.held < this.#size && this.#waiting.length > 0) this.#waiting.shift()!.grant();
    while (this.held < this.#size && this.#bulk.length > 0) {
      const wait = Math.max(this.#bulkWait(this.#bulk[0]!), this.#shareWait());
      if (wait === Number.POSITIVE_INFINITY) return; // a release pumps again
      if (wait > 0) {
        this.#wakeIn(wait);
        return;
      }
      this.#bulk.shift()!.grant();
    }
  }

  /** How long until bulk work's share lets it take one more slot (0: now; infinite: only a release frees one). */
  #shareWait(): number {
    if (this.#bulkHeld < this.#bulkLimit) return 0;
    if (this.#lastBulkHold > this.#shortBulkMs) return Number.POSITIVE_INFINITY;
    if (this.#singlesHeld > 0 || this.#waiting.length > 0) return Number.POSITIVE_INFINITY;
    return Math.max(0, this.#lastSingleSeen + this.#quietMs - this.#now());
  }

  /** How long the bulk job must still wait before it may start (0: now). */
  #bulkWait(waiter: Waiter): number {
    const now = this.#now();
    const aged = waiter.since + this.#agingMs - now;
    if (aged <= 0) return 0;
    // a single render holds or waits: only aging lets bulk in
    if (this.#singlesHeld > 0 || this.#waiting.length > 0) return aged;
    return Math.max(0, Math.min(aged, this.#lastSingleEnd + this.#graceMs - now));
  }

  #wakeIn(ms: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#pump();
    }, Math.ceil(ms));
    this.#timer.unref();
  }
}

function closedError(): RenderError {
  return new RenderError('internal_failure', 'renderer_closed', 'the renderer is shutting down');
}
