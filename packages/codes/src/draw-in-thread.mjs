// Draws codes on a worker thread of their own (draw-thread.mjs), so the calling process's event
// loop never waits for an encoder: one thread, started at the first call, draws one job (a render's
// codes) at a time, the others waiting their turn. A job that takes longer than its timeoutMs is
// ended by terminating the thread, which V8 can do in the middle of any encoder loop; the next
// job gets a new thread. An idle thread is closed after IDLE_MS, so a process that drew a code
// once does not keep the encoder's heap.
//
// The thread file is found beside this one: in the built worker process too, whose bundle
// rewrites import.meta.url to this source file's location (scripts/build-service.mjs).
import { Worker } from 'node:worker_threads';
import { CodeError } from './code-error.mjs';

const threadUrl = new URL('./draw-thread.mjs', import.meta.url);
/** An idle thread is closed after this long (ms). */
const IDLE_MS = 60_000;

/**
 * @typedef {{ outcome: 'drawn', drawings: string[] } | { outcome: 'refused', index: number, error: CodeError } | { outcome: 'timed_out', index: number }} CodeDrawingResult
 * @typedef {{ id: number, requests: import('./index.mjs').DrawCodeInput[], timeoutMs: number, drawings: string[], resolve: (result: CodeDrawingResult) => void, reject: (error: Error) => void }} Job
 * @typedef {{ worker: Worker, ready: boolean, job: Job | null, timer: NodeJS.Timeout | null }} Thread
 */

/** @type {Job[]} */
const queue = [];
/** @type {Thread | null} */
let thread = null;
let nextId = 1;

/**
 * Draws the codes in order on the drawing thread: every drawing, or the first code that cannot be
 * drawn (its index and CodeError), or the index of the code being drawn when timeoutMs of the
 * job's own drawing time (waiting for its turn not counted) ran out. Rejects when the thread
 * fails (it could not start, or an encoder error that is not a CodeError).
 * @param {import('./index.mjs').DrawCodeInput[]} requests
 * @param {{ timeoutMs: number }} options
 * @returns {Promise<CodeDrawingResult>}
 */
export function drawCodesInThread(requests, { timeoutMs }) {
  return new Promise((resolve, reject) => {
    const job = { id: nextId++, requests, timeoutMs, drawings: [], resolve, reject };
    queue.push(job);
    try {
      pump();
    } catch (error) {
      // the thread could not even be created: nothing is left waiting for it
      const waiting = queue.indexOf(job);
      if (waiting !== -1) queue.splice(waiting, 1);
      throw error;
    }
  });
}

function pump() {
  if (queue.length === 0) return;
  thread ??= spawn();
  const current = thread;
  if (!current.ready || current.job !== null) return;
  const job = /** @type {Job} */ (queue.shift());
  if (current.timer !== null) clearTimeout(current.timer);
  current.job = job;
  current.worker.ref();
  current.timer = setTimeout(() => overrun(current), job.timeoutMs);
  current.worker.postMessage({ id: job.id, requests: job.requests });
}

/** @returns {Thread} */
function spawn() {
  /** @type {Thread} */
  const current = { worker: new Worker(threadUrl), ready: false, job: null, timer: null };
  current.worker.on('message', (message) => {
    if (thread !== current) return;
    if (message.type === 'ready') {
      current.ready = true;
      current.worker.unref();
      pump();
      return;
    }
    const job = current.job;
    if (job === null || message.id !== job.id) return;
    if (message.type === 'drawn') {
      job.drawings.push(message.svg);
      return;
    }
    settle(current);
    if (message.type === 'done') job.resolve({ outcome: 'drawn', drawings: job.drawings });
    else if (message.type === 'refused') job.resolve({ outcome: 'refused', index: message.index, error: new CodeError(message.field, message.reason, message.detail) });
    else job.reject(new Error(`drawing a code failed: ${message.message}`));
    pump();
  });
  current.worker.on('error', (error) => lost(current, error));
  current.worker.on('exit', (code) => lost(current, new Error(`the code drawing thread stopped (exit code ${code})`)));
  return current;
}

/** The job is over: the thread waits for the next, unref'd, and is closed after IDLE_MS without one. @param {Thread} current */
function settle(current) {
  if (current.timer !== null) clearTimeout(current.timer);
  current.job = null;
  current.worker.unref();
  current.timer = setTimeout(() => {
    if (thread !== current || current.job !== null) return;
    thread = null;
    void current.worker.terminate();
  }, IDLE_MS);
  current.timer.unref();
}

/** The job ran past its time: the thread is ended mid-drawing, and the next job gets a new one. @param {Thread} current */
function overrun(current) {
  const job = current.job;
  if (thread !== current || job === null) return;
  thread = null;
  current.job = null;
  void current.worker.terminate();
  job.resolve({ outcome: 'timed_out', index: job.drawings.length });
  pump();
}

/**
 * The thread stopped on its own (an error, or it could not start): its job fails; when it never
 * started, the jobs waiting fail too instead of starting thread after thread.
 * @param {Thread} current @param {Error} error
 */
function lost(current, error) {
  if (thread !== current) return;
  thread = null;
  if (current.timer !== null) clearTimeout(current.timer);
  const job = current.job;
  current.job = null;
  void current.worker.terminate();
  if (job !== null) job.reject(error);
  if (!current.ready) for (const waiting of queue.splice(0)) waiting.reject(error);
  else pump();
}
