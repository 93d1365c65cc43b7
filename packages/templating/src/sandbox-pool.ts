import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FairQueue } from './fair-queue.ts';
import { overrunVerdict, threadCpuMs } from './thread-cpu.mjs';

/** The limits the worker enforces itself; size limits on inputs are checked before dispatch. */
export interface SandboxLimits {
  outputChars: number;
  /** CPU time of the evaluating thread (wall time where it cannot be read). */
  timeMs: number;
  /** Wall time after which an evaluation still under timeMs of CPU is refused as overloaded. */
  safetyMs: number;
  memoryBytes: number;
  renderDepth: number;
  workUnits: number;
}

export interface SandboxJob {
  source: string;
  dataJson: string;
  limits: SandboxLimits;
}

/** `code` is whatever the worker reported ('overloaded' when the machine, not the template, ran out of time); the caller validates it. */
export type SandboxOutcome =
  | { ok: true; html: string }
  | { ok: false; code: string; line?: number; column?: number; name?: string; kind?: string; problem?: string };

/** Who an evaluation is for and what it cost: the pool is fair between tenants. */
export interface SandboxTenancy {
  /** the account the evaluation is for; omitted, the service's own work (fixed content) */
  tenant?: string;
  /** told the milliseconds a worker spent on the job, whatever its outcome */
  onWork?: (ms: number) => void;
}

export interface SandboxPoolOptions {
  workers: number;
  /** Added to timeMs (of the worker thread's CPU) and safetyMs before the parent kills a worker whose VM ignores its own deadline. */
  killGraceMs: number;
  /** How long a worker may take to build a sandbox before the job fails. */
  startTimeoutMs: number;
}

/** How often an overdue worker's CPU time is read again. */
const overdueCheckMs = 100;

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'started'; id: number; thread: number | null; cpuMs: number | null }
  | { type: 'done'; id: number; outcome: SandboxOutcome; workMs: number }
  | { type: 'failed'; id: number };

interface Task {
  id: number;
  job: SandboxJob;
  tenancy: SandboxTenancy;
  /** when a worker took the task */
  startedAt: number;
  resolve: (outcome: SandboxOutcome) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  /** A prepared sandbox is waiting in the worker. */
  ready: boolean;
  /** The tenant of the worker's last task: the one its kept sandbox, if any, is for. */
  lastTenant?: string;
  /** When the worker's VM started the current task, and that thread's id and CPU time then. */
  run: { at: number; thread: number | null; cpuMs: number | null } | null;
}

// The worker script runs from this package's files on disk, never from a bundle: the web app's
// bundler inlines this module into its own chunks (so import.meta.url names the chunk) and
// could not bundle the script's WebAssembly. The file is found through the package's exports,
// by a name built at run time so no bundler follows it.
// (process.getBuiltinModule keeps the bundler's own require shim out of the lookup.)
let workerUrl: URL | undefined;
function sandboxWorkerUrl(): URL {
  if (!workerUrl) {
    const { createRequire } = process.getBuiltinModule('node:module');
    workerUrl = pathToFileURL(createRequire(import.meta.url).resolve(['@svc/templating', 'sandbox-worker'].join('/')));
  }
  return workerUrl;
}

/**
 * Worker threads that run sandboxed evaluations one at a time each. Idle workers are unref'd,
 * so they never keep the process alive. The VM stops itself at
 * its deadline through QuickJS's interrupt handler; a few built-ins (generic array methods on
 * huge array-likes, for example) never poll it, so the parent also holds a hard deadline and
 * terminates the worker, which V8 can do even in the middle of WebAssembly.
 */
export class SandboxPool {
  private readonly slots: Slot[] = [];
  private readonly queue = new FairQueue<Task>();
  private nextId = 1;

  constructor(private readonly options: SandboxPoolOptions) {}

  run(job: SandboxJob, tenancy: SandboxTenancy = {}): Promise<SandboxOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push(tenancy.tenant, { id: this.nextId++, job, tenancy, startedAt: 0, resolve, reject });
      this.pump();
    });
  }

  /** Starts `count` workers ahead of the first evaluation (each prepares a sandbox when idle); the rest start when evaluations overlap. */
  warm(count: number): void {
    while (this.slots.length < Math.min(count, this.options.workers)) this.spawn();
  }

  private pump(): void {
    while (this.queue.waiting(this.perTenant())) {
      const idle = this.slots.filter((candidate) => candidate.task === null);
      if (idle.length === 0 && this.slots.length >= this.options.workers) return;
      const task = this.queue.next(this.perTenant()) as Task;
      // the worker that last evaluated for the tenant may keep a sandbox for its next evaluation
      // (sandbox-worker.mjs): it is preferred even before it has reported its spares ready
      const { tenant } = task.tenancy;
      const kept = tenant === undefined ? undefined : idle.find((candidate) => candidate.lastTenant === tenant);
      this.assign(kept ?? idle.find((candidate) => candidate.ready) ?? idle[0] ?? this.spawn(), task);
    }
  }

  /**
   * Workers one tenant may hold at once: all but one, so another account's evaluation always
   * finds a worker free of the first account's work (a tenant's flood costs others no more
   * than a turn on the spare worker), and tenants take turns at the rest.
   */
  private perTenant(): number {
    return Math.max(1, this.options.workers - 1);
  }

  private spawn(): Slot {
    const worker = new Worker(sandboxWorkerUrl(), {
      execArgv: [],
      env: {},
      // 32 MiB of native stack, far above QuickJS's own 512 KiB limit (see sandbox-worker.mjs).
      resourceLimits: { stackSizeMb: 32, maxOldGenerationSizeMb: 256 },
    });
    const slot: Slot = { worker, task: null, timer: null, ready: false, run: null };
    worker.unref();
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error: Error & { code?: string }) => {
      this.retire(slot);
      this.settle(slot, (task) =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? task.resolve({ ok: false, code: 'template_work_limit' })
          : task.reject(new Error('template sandbox worker failed')),
      );
    });
    worker.on('exit', () => {
      this.retire(slot);
      this.settle(slot, (task) => task.reject(new Error('template sandbox worker exited')));
    });
    this.slots.push(slot);
    return slot;
  }

  private assign(slot: Slot, task: Task): void {
    task.startedAt = performance.now();
    slot.task = task;
    slot.ready = false;
    slot.lastTenant = task.tenancy.tenant;
    slot.worker.ref();
    slot.timer = setTimeout(() => this.kill(slot, null), this.options.startTimeoutMs);
    const { source, dataJson, limits } = task.job;
    // the tenant's evaluations of one source may share a sandbox (sandbox-worker.mjs)
    slot.worker.postMessage({ type: 'job', id: task.id, source, dataJson, limits, tenant: task.tenancy.tenant });
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (message.type === 'ready') {
      // While busy, the prepared sandbox is the one the current task is consuming.
      slot.ready = slot.task === null;
      return;
    }
    if (slot.task === null || message.id !== slot.task.id) return;
    switch (message.type) {
      case 'started': {
        if (slot.timer !== null) clearTimeout(slot.timer);
        slot.run = { at: performance.now(), thread: message.thread, cpuMs: message.cpuMs };
        slot.timer = setTimeout(() => this.overdue(slot), slot.task.job.limits.timeMs + this.options.killGraceMs);
        return;
      }
      case 'done': {
        const { outcome, workMs } = message;
        this.settle(slot, (task) => task.resolve(outcome), workMs);
        this.pump();
        return;
      }
      case 'failed':
        this.settle(slot, (task) => task.reject(new Error('template sandbox unavailable')));
        this.pump();
        return;
    }
  }

  /**
   * Ends the slot's task, if any, and returns the slot to idle. The task's work is what the
   * worker thread reports (its own time on the job, so this thread's busy moments and the
   * messages' way do not count against the account), else the time since it was sent.
   */
  private settle(slot: Slot, finish: (task: Task) => void, workMs?: number): void {
    if (slot.timer !== null) clearTimeout(slot.timer);
    slot.timer = null;
    const task = slot.task;
    slot.task = null;
    slot.run = null;
    slot.worker.unref();
    if (task === null) return;
    this.queue.done(task.tenancy.tenant);
    try {
      task.tenancy.onWork?.(workMs ?? performance.now() - task.startedAt);
    } finally {
      finish(task);
    }
  }

  /**
   * The worker is past its deadline and has not answered: its VM is in a built-in that never
   * polls, or the machine is too busy to run it. The worker thread's CPU time tells which: over
   * timeMs (plus the grace), the template's own work (template_timeout); under it, the worker is
   * waited for until safetyMs of wall time, then refused as overloaded. Without a CPU reading,
   * wall time decides.
   */
  private overdue(slot: Slot): void {
    const task = slot.task;
    const run = slot.run;
    if (task === null || run === null) return;
    const { timeMs, safetyMs } = task.job.limits;
    const grace = this.options.killGraceMs;
    const cpu = threadCpuMs(run.thread);
    const cpuMs = cpu === null || run.cpuMs === null ? null : cpu - run.cpuMs;
    const verdict = overrunVerdict({ wallMs: performance.now() - run.at, cpuMs, timeMs: timeMs + grace, safetyMs: safetyMs + grace });
    if (verdict === null) slot.timer = setTimeout(() => this.overdue(slot), overdueCheckMs);
    else this.kill(slot, { ok: false, code: verdict });
  }

  private kill(slot: Slot, outcome: SandboxOutcome | null): void {
    this.retire(slot);
    this.settle(slot, (task) =>
      outcome === null ? task.reject(new Error('template sandbox did not start')) : task.resolve(outcome),
    );
    void slot.worker.terminate();
    this.pump();
  }

  /** Removes the slot so no further task is sent to its worker. */
  private retire(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index !== -1) {
      this.slots.splice(index, 1);
      queueMicrotask(() => this.pump());
    }
  }
}
