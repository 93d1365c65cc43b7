// Worker thread that evaluates templates in QuickJS. Plain JavaScript on purpose: Node loads it
// directly (no TypeScript loader exists inside worker threads under vitest or in production).
//
// Every evaluation gets its own WebAssembly instance of QuickJS (own linear memory, capped),
// with nunjucks and the guest hooks already loaded. The instance is dropped afterwards, so no
// heap, prototype or global state survives from one customer to the next. Within one account
// and one source (the isolation boundary is the account), an evaluation that succeeded leaves
// its instance to the account's next evaluation of the same source, such as a batch's next row
// or the next render of a saved template (at most REUSES_PER_SANDBOX evaluations; dropped after
// a failure, another account's or source's job, or a moment idle): building an instance costs
// many times a typical evaluation.
//
// The JavaScript nunjucks generates for a source is cached by SHA-256 of the source: it is a pure
// function of the source (the guest makes compilation side-effect free), and compiling in QuickJS
// costs far more than rendering (tens of ms for a typical document template). A source seen
// before therefore runs in a VM with only nunjucks' slim runtime loaded (half the load time of
// the full build); a new source is compiled and run in a VM with the full build. One spare of
// each kind is prepared while the worker is idle, keeping load time off the request path.
//
// Messages in:  { type: 'job', id, source, dataJson, limits: { outputChars, timeMs, safetyMs, memoryBytes, renderDepth, workUnits }, tenant? }
// Messages out: { type: 'ready' } when prepared sandboxes are waiting
//               { type: 'started', id, thread, cpuMs } just before the VM runs (the parent then arms
//               its hard deadline; thread and cpuMs let it read this thread's CPU time, null if it cannot)
//               { type: 'done', id, outcome: { ok: true, html } | { ok: false, code, line?, column?, name?, kind?, problem? }, workMs }
//               (problem: a code filter's CodeError message, with template_invalid_filter_input)
//               (code 'overloaded': the machine was too busy to finish in time, not the template's doing)
//               (workMs: this thread's time on the job, from its arrival to its answer)
//               { type: 'failed', id } when no sandbox could be built

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import releaseSyncVariant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten';
import { drawForFilter } from './code-filters.mjs';
import { format } from './intl-format.mjs';
import { guestSource } from './sandbox-guest.mjs';
import { currentThreadId, overrunVerdict, threadCpuMs } from './thread-cpu.mjs';

const require = createRequire(import.meta.url);
// Unminified builds: the minified ones rename the compiler's private methods the guest hooks.
const nunjucksSources = {
  full: readFileSync(require.resolve('nunjucks/browser/nunjucks.js'), 'utf8'),
  slim: readFileSync(require.resolve('nunjucks/browser/nunjucks-slim.js'), 'utf8'),
};
const wasmModule = await WebAssembly.compile(readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));

const PAGE_BYTES = 65_536;
// Emscripten's initial memory; it holds the 5 MiB C stack and static data.
const INITIAL_PAGES = 256;
// Above the QuickJS heap limit: C stack, static data, strings passed in and out, fragmentation.
const WASM_HEADROOM_BYTES = 48 * 1024 * 1024;
// QuickJS's own stack limit. Checked against the 32 MiB worker stack (set by the parent):
// deep JS recursion, parser nesting and JSON nesting all fail inside QuickJS first.
const VM_STACK_BYTES = 512 * 1024;
// Default heap cap of prepared instances; larger per-call limits get a fresh instance.
const SPARE_MEMORY_BYTES = 64 * 1024 * 1024;

/** @param {'full' | 'slim'} kind @param {number} memoryBytes */
async function createSandbox(kind, memoryBytes) {
  const wasmMemory = new WebAssembly.Memory({
    initial: INITIAL_PAGES,
    maximum: Math.max(INITIAL_PAGES, Math.ceil((memoryBytes + WASM_HEADROOM_BYTES) / PAGE_BYTES)),
  });
  const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(releaseSyncVariant, { wasmModule, wasmMemory }));
  const runtime = quickjs.newRuntime();
  runtime.setMaxStackSize(VM_STACK_BYTES);
  const context = runtime.newContext();
  context.unwrapResult(context.evalCode(nunjucksSources[kind], 'nunjucks.js')).dispose();
  // The VM's host functions; the guest takes them off the global object before any template runs.
  const formatFunction = context.newFunction('svcFormat', (...args) => context.newString(formatForGuest(context, args)));
  context.setProp(context.global, 'svcFormat', formatFunction);
  formatFunction.dispose();
  const codeFunction = context.newFunction('svcCode', (...args) => context.newString(codeForGuest(context, args)));
  context.setProp(context.global, 'svcCode', codeFunction);
  codeFunction.dispose();
  const guest = context.unwrapResult(context.evalCode(guestSource, 'guest.js'));
  return { kind, runtime, context, guest, memoryBytes };
}

// Formatting filters (intl-format.mjs) run on the host's ICU, outside the VM's interrupt polls,
// so each call is charged to the evaluation's work budget in fixed amounts, whatever the host's
// caches hold: a call costs 1/50 of a work unit (crossing into the host and back costs some
// 15-20 us, formatting 2-3 us; a unit is about 1 ms of nunjucks work), and each formatter the
// evaluation uses for the first time 1/4 more (building one costs up to 0.1 ms). An evaluation
// uses at most FORMATTERS_PER_EVALUATION formatters (fewer than the cache keeps, so none is
// rebuilt within one); one more is template_work_limit. Work is counted in hundredths of a
// unit, so the sums are exact.
const WORK_PER_POLL = 100;
const WORK_PER_FORMAT_CALL = 2;
const WORK_PER_FORMATTER = 25;
const FORMATTERS_PER_EVALUATION = 100;

// Code filters (code-filters.mjs) draw with @svc/codes on this thread, outside the VM's polls, at
// a cost that grows with the value: each call is charged before it draws, 1 work unit per 10
// bytes of its input (text, or the payment object as JSON), at least 1 unit, also when the
// drawing comes from the thread's cache of drawings. Drawing a large Data Matrix or PDF417 costs
// about 0.25 ms a byte on an idle core (a QR code much less), so the charge is below the real cost for the
// largest codes (a 1,500-byte Data Matrix is 150 units): timeMs, read at the next poll, bounds the
// rest. An evaluation draws at most CODES_PER_EVALUATION codes, as a render draws at most 100
// <svc-code> elements; one more is template_work_limit.
const WORK_PER_CODE_BYTE = 10;
const CODES_PER_EVALUATION = 100;

// Deadlines. The work budget decides whether a template does too much; timeMs is CPU time of
// this thread (compile included), a bound above the budget for work the polls do not count
// (compiling, native string work), so a busy machine cannot turn a template within its budget
// into template_timeout. Once timeMs of wall time has passed, the thread's CPU time is read
// every CPU_CHECK_MS: over timeMs it is template_timeout; still under it when the wall time
// passes safetyMs, the machine is too busy and the answer is 'overloaded' (retry later).
// Where the thread's CPU time cannot be read (no /proc), wall time stands in for it.
const CPU_CHECK_MS = 10;
const threadId = currentThreadId();

/**
 * The budget of the evaluation running now (charge answers false once it is spent).
 * codes: the code filter calls so far; problem: why the last one was refused (CodeError's message).
 * @type {{ charge: (hundredths: number) => boolean, exhaust: () => void, formatters: Set<string>, codes: number, problem: string | null } | null}
 */
let meter = null;

/**
 * One call of the guest's svcFormat(kind, value, locale, timeZone, optionsJson): only strings and
 * numbers are read. Answers "F" + text, "X" for input the formatters refuse, "W" when the work
 * budget is spent.
 * @param {import('quickjs-emscripten').QuickJSContext} context
 * @param {import('quickjs-emscripten').QuickJSHandle[]} handles
 */
function formatForGuest(context, handles) {
  if (meter === null || handles.length !== 5) return 'X';
  if (!meter.charge(WORK_PER_FORMAT_CALL)) return 'W';
  const values = handles.map((handle) => {
    const type = context.typeof(handle);
    if (type === 'string') return context.getString(handle);
    return type === 'number' ? context.getNumber(handle) : undefined;
  });
  const result = format(values[0], values[1], values[2], values[3], values[4]);
  if (!result.ok) return 'X';
  if (!meter.formatters.has(result.key)) {
    if (meter.formatters.size >= FORMATTERS_PER_EVALUATION) {
      meter.exhaust();
      return 'W';
    }
    if (!meter.charge(WORK_PER_FORMATTER)) return 'W';
    meter.formatters.add(result.key);
  }
  return `F${result.text}`;
}

/**
 * One call of the guest's svcCode(filter, input, optionsJson): strings only. Answers "S" + SVG,
 * "X" for input the code refuses (its message kept for the outcome), "W" when the work budget
 * or the evaluation's codes are spent.
 * @param {import('quickjs-emscripten').QuickJSContext} context
 * @param {import('quickjs-emscripten').QuickJSHandle[]} handles
 */
function codeForGuest(context, handles) {
  if (meter === null || handles.length !== 3 || handles.some((handle) => context.typeof(handle) !== 'string')) return 'X';
  meter.problem = null;
  const [filter, input, optionsJson] = handles.map((handle) => context.getString(handle));
  meter.codes += 1;
  if (meter.codes > CODES_PER_EVALUATION) {
    meter.exhaust();
    return 'W';
  }
  if (!meter.charge(Math.max(WORK_PER_POLL, Buffer.byteLength(input) * WORK_PER_CODE_BYTE))) return 'W';
  const result = drawForFilter(filter, input, optionsJson);
  if (result.ok) return `S${result.svg}`;
  meter.problem = result.message;
  return 'X';
}

/** @typedef {Awaited<ReturnType<typeof createSandbox>>} Sandbox */
/** @type {{ full: Promise<Sandbox> | null, slim: Promise<Sandbox> | null }} */
const spares = { full: null, slim: null };

async function prepareSpares() {
  for (const kind of /** @type {const} */ (['slim', 'full'])) {
    if (spares[kind] !== null) continue;
    const prepared = createSandbox(kind, SPARE_MEMORY_BYTES);
    spares[kind] = prepared;
    // A failure here resurfaces when the spare is taken.
    await prepared.catch(() => {});
  }
  if (spares.slim !== null && spares.full !== null) parentPort.postMessage({ type: 'ready' });
}

/** @param {'full' | 'slim'} kind @param {number} memoryBytes */
async function takeSandbox(kind, memoryBytes) {
  const prepared = spares[kind];
  spares[kind] = null;
  if (prepared !== null) {
    const sandbox = await prepared.catch(() => null);
    if (sandbox !== null && sandbox.memoryBytes >= memoryBytes) return sandbox;
  }
  return createSandbox(kind, memoryBytes);
}

/** Evaluations in one instance at most, so its heap starts anew now and then. */
const REUSES_PER_SANDBOX = 100;
/** A kept instance no evaluation has asked for this long is dropped (ms). */
const KEPT_IDLE_MS = 2_000;
/** The instance an account's last evaluation of a source left for its next. @type {{ key: string, sandbox: Sandbox, uses: number, timer: NodeJS.Timeout } | null} */
let kept = null;

function dropKept() {
  if (kept !== null) clearTimeout(kept.timer);
  kept = null;
}

/** @param {string} key @param {Sandbox} sandbox @param {number} uses */
function keep(key, sandbox, uses) {
  dropKept();
  if (uses >= REUSES_PER_SANDBOX) return;
  const timer = setTimeout(dropKept, KEPT_IDLE_MS);
  timer.unref();
  kept = { key, sandbox, uses, timer };
}

/**
 * The kept instance, when it was left by the same account for the same source and can do this
 * job (its heap cap is high enough; a slim one cannot compile); else none, and the kept one is
 * dropped.
 * @param {string | undefined} key @param {'full' | 'slim'} kind @param {number} memoryBytes
 */
function takeKept(key, kind, memoryBytes) {
  const found = kept;
  dropKept();
  if (found === null || key === undefined || found.key !== key) return null;
  if (found.sandbox.memoryBytes < memoryBytes || (kind === 'full' && found.sandbox.kind !== 'full')) return null;
  return found;
}

const CACHE_MAX_ENTRIES = 256;
const CACHE_MAX_CHARS = 32 * 1024 * 1024;
/** Generated code by source hash, least recently used first. @type {Map<string, string>} */
const compiled = new Map();
let compiledChars = 0;

/** @param {string} key */
function cachedCode(key) {
  const code = compiled.get(key);
  if (code !== undefined) {
    compiled.delete(key);
    compiled.set(key, code);
  }
  return code;
}

/** @param {string} key @param {string} code */
function cacheCode(key, code) {
  if (code.length > CACHE_MAX_CHARS / 8 || compiled.has(key)) return;
  compiled.set(key, code);
  compiledChars += code.length;
  for (const [oldKey, oldCode] of compiled) {
    if (compiled.size <= CACHE_MAX_ENTRIES && compiledChars <= CACHE_MAX_CHARS) break;
    compiled.delete(oldKey);
    compiledChars -= oldCode.length;
  }
}

/**
 * Reads why a call into the VM threw, without trusting the thrown value.
 * @param {import('quickjs-emscripten').QuickJSContext} context
 * @param {import('quickjs-emscripten').QuickJSHandle} handle
 */
function thrownCode(context, handle) {
  let message = '';
  try {
    if (context.typeof(handle) === 'object') {
      const text = context.getProp(handle, 'message');
      if (context.typeof(text) === 'string') message = context.getString(text);
      text.dispose();
    }
  } catch {
    // unreadable: most likely the heap is exhausted
  }
  if (message.includes('stack overflow')) return 'template_depth_limit';
  if (/out of memory|string too long|invalid array length/.test(message) || message === '') return 'template_work_limit';
  return 'template_evaluation_error';
}

// the name is the missing variable's, as the guest built it from the source's identifiers; the
// kind, which porting fix applies (the guest's fixed words)
const failurePattern = /^E([a-z_]+):(\d*):(\d*)(?::([\w$.[\]]{0,100})(?::([a-z0-9.]{0,40}))?)?$/;

/** @param {string} text */
function decodeOutcome(text) {
  if (text.startsWith('H')) return { ok: true, html: text.slice(1) };
  const match = failurePattern.exec(text);
  if (match === null) return { ok: false, code: 'template_evaluation_error' };
  const outcome = { ok: false, code: match[1] };
  if (match[2]) outcome.line = Number(match[2]);
  if (match[3]) outcome.column = Number(match[3]);
  if (match[4]) outcome.name = match[4];
  if (match[5]) outcome.kind = match[5];
  return outcome;
}

/**
 * Calls one guest function; returns its string answer or a failure outcome.
 * @param {Sandbox} sandbox
 * @param {string} name
 * @param {Array<string | number>} values
 * @param {number} memoryBytes
 * @param {() => string | null} stopped
 */
function callGuest(sandbox, name, values, memoryBytes, stopped) {
  const { runtime, context } = sandbox;
  // Strings enter the VM as C strings too: one holding a NUL would arrive cut short.
  if (values.some((value) => typeof value === 'string' && value.includes('\u0000'))) return { ok: false, code: 'template_evaluation_error' };
  const fn = context.getProp(sandbox.guest, name);
  const args = values.map((value) => (typeof value === 'string' ? context.newString(value) : context.newNumber(value)));
  let result;
  try {
    runtime.setMemoryLimit(memoryBytes);
    result = context.callFunction(fn, context.undefined, ...args);
    // Lifted so copying a large answer out cannot fail half-way (the wasm memory cap still holds).
    runtime.setMemoryLimit(-1);
  } catch (error) {
    // The VM blew the worker's own stack, or trapped: the instance is dropped either way.
    return { ok: false, code: stopped() ?? (error instanceof RangeError ? 'template_depth_limit' : 'template_evaluation_error') };
  }
  const reason = stopped();
  if (reason !== null) return { ok: false, code: reason };
  if (result.error) return { ok: false, code: thrownCode(context, result.error) };
  // released, so a kept instance holds nothing of this evaluation
  for (const handle of [fn, ...args]) handle.dispose();
  try {
    if (context.typeof(result.value) !== 'string') return { ok: false, code: 'template_evaluation_error' };
    return context.getString(result.value);
  } finally {
    result.value.dispose();
  }
}

/**
 * Evaluates the job in a sandbox: the one the account's last evaluation of the source left, else
 * a prepared one.
 * @param {{ id: number, source: string, dataJson: string, limits: { outputChars: number, timeMs: number, safetyMs: number, memoryBytes: number, renderDepth: number, workUnits: number }, tenant?: string }} job
 */
async function evaluate(job) {
  const { limits } = job;
  const key = createHash('sha256').update(job.source).digest('base64');
  const keepKey = job.tenant === undefined ? undefined : `${job.tenant}\n${key}`;
  let code = cachedCode(key);
  const kind = code === undefined ? 'full' : 'slim';
  const reused = takeKept(keepKey, kind, limits.memoryBytes);
  const sandbox = reused?.sandbox ?? (await takeSandbox(kind, limits.memoryBytes));
  const uses = (reused?.uses ?? 0) + 1;
  const startedAt = performance.now();
  const cpuAtStart = threadCpuMs();
  parentPort.postMessage({ type: 'started', id: job.id, thread: threadId, cpuMs: cpuAtStart });

  /** @type {string | null} */
  let stopped = null;
  // Work counts only while rendering: compiling costs in proportion to the (size-limited)
  // source alone, is cached, and is bounded by the deadline and the memory limit.
  let rendering = false;
  // hundredths of a work unit: interrupt polls and the formatting filters' charges
  let work = 0;
  const budget = limits.workUnits * WORK_PER_POLL;
  let nextCheck = startedAt + limits.timeMs;
  /** @param {number} now */
  const overrun = (now) => {
    const cpu = threadCpuMs();
    const cpuMs = cpu === null || cpuAtStart === null ? null : cpu - cpuAtStart;
    return overrunVerdict({ wallMs: now - startedAt, cpuMs, timeMs: limits.timeMs, safetyMs: limits.safetyMs });
  };
  meter = {
    charge(hundredths) {
      work += hundredths;
      if (work > budget && stopped === null) stopped = 'template_work_limit';
      return stopped === null;
    },
    exhaust() {
      stopped ??= 'template_work_limit';
    },
    formatters: new Set(),
    codes: 0,
    problem: null,
  };
  sandbox.runtime.setInterruptHandler(() => {
    if (stopped === null) {
      if (rendering) work += WORK_PER_POLL;
      if (work > budget) stopped = 'template_work_limit';
      else {
        const now = performance.now();
        if (now > nextCheck) {
          nextCheck = now + CPU_CHECK_MS;
          stopped = overrun(now);
        }
      }
    }
    return stopped !== null;
  });
  const reason = () => stopped;

  if (code === undefined) {
    const answer = callGuest(sandbox, 'compile', [job.source], limits.memoryBytes, reason);
    if (typeof answer !== 'string') return answer;
    if (!answer.startsWith('C')) return decodeOutcome(answer);
    code = answer.slice(1);
    cacheCode(key, code);
  }
  rendering = true;
  const defaults = templateDefaults(job.source);
  const answer = callGuest(sandbox, 'run', [code, job.dataJson, limits.outputChars, limits.renderDepth, defaults.locale, defaults.timeZone], limits.memoryBytes, reason);
  if (typeof answer !== 'string') return answer;
  const outcome = decodeOutcome(answer);
  // a code filter's refusal says why, in CodeError's words
  if (!outcome.ok && outcome.code === 'template_invalid_filter_input' && outcome.kind === 'code' && meter.problem !== null) {
    outcome.problem = meter.problem;
  }
  // an evaluation that succeeded leaves the sandbox to the account's next one of the source
  if (outcome.ok && keepKey !== undefined) keep(keepKey, sandbox, uses);
  return outcome;
}

const metaPattern = /<meta\s+name\s*=\s*(["'])svc-(locale|time-zone)\1\s+content\s*=\s*(["'])([A-Za-z0-9_+\-/]{1,64})\3/gi;

/**
 * The template's own default locale and time zone for the formatting filters, from
 * <meta name="svc-locale" content="de-DE"> and <meta name="svc-time-zone" content="Europe/Berlin">
 * written in its source (the first of each; "" when absent). Checked when a filter uses them.
 * @param {string} source
 */
function templateDefaults(source) {
  const defaults = { locale: '', timeZone: '' };
  if (!source.includes('svc-')) return defaults;
  for (const match of source.matchAll(metaPattern)) {
    const field = match[2].toLowerCase() === 'locale' ? 'locale' : 'timeZone';
    if (defaults[field] === '') defaults[field] = match[4];
  }
  return defaults;
}

parentPort.on('message', async (message) => {
  if (message?.type !== 'job') return;
  const arrived = performance.now();
  try {
    // The sandbox is dropped after this one evaluation, unless the account's next one may use it.
    const outcome = await evaluate(message);
    parentPort.postMessage({ type: 'done', id: message.id, outcome, workMs: performance.now() - arrived });
  } catch {
    // Not the template's doing (the sandbox could not be built): the parent reports a plain failure.
    parentPort.postMessage({ type: 'failed', id: message.id });
  }
  setImmediate(prepareSpares);
});

prepareSpares();
