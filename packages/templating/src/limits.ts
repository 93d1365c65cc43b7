import { maxTemplateDataBytes, maxTemplateOutputChars, maxTemplateSourceBytes } from '@svc/rules';

export interface TemplateLimits {
  /** UTF-8 bytes of template source (the render request rules and the contract's limits). */
  sourceBytes: number;
  /** UTF-8 bytes of the canonical key-sorted JSON of data (the render request rules and the contract's limits). */
  dataBytes: number;
  /** Nesting levels of arrays and objects in data; the data object itself is level 1. */
  dataDepth: number;
  /** Entries in any one array or object of data. */
  dataCollection: number;
  /** Characters of rendered HTML, and of any one output buffer while rendering (the saved template rules and the contract's limits). */
  outputChars: number;
  /**
   * CPU time of the evaluating thread for one evaluation, compile included (wall time where the
   * platform cannot read a thread's CPU time); past it, template_timeout. A bound above the work
   * budget, for what the budget does not count. Wall time alone never refuses a template: past
   * safetyWallMs(timeMs) of it, the evaluation is refused as overloaded.
   */
  timeMs: number;
  /** QuickJS heap of one evaluation, the loaded nunjucks library included. */
  memoryBytes: number;
  /** Nested macro calls (recursion included; `caller` blocks count as macros). */
  renderDepth: number;
  /**
   * Deterministic budget of rendering work, in QuickJS interrupt polls: the VM polls once per
   * 10,000 backward jumps, calls or regex steps, whatever the machine's speed or load.
   * Compilation is not counted (it depends on the size-limited source alone and is cached);
   * timeMs bounds it. The budget, not the clock, is what decides for rendering: 500 units take
   * about half of the default timeMs on an idle core.
   */
  workUnits: number;
}

export const defaultTemplateLimits: Readonly<TemplateLimits> = Object.freeze({
  sourceBytes: maxTemplateSourceBytes,
  dataBytes: maxTemplateDataBytes,
  dataDepth: 32,
  dataCollection: 10_000,
  outputChars: maxTemplateOutputChars,
  timeMs: 1_000,
  memoryBytes: 64 * 1024 * 1024,
  renderDepth: 100,
  workUnits: 500,
});

/**
 * Wall time after which an evaluation still under timeMs of CPU is ended as overloaded: the
 * machine, not the template, is too slow (it got under a tenth of a core).
 */
export function safetyWallMs(timeMs: number): number {
  return Math.max(10 * timeMs, 10_000);
}

/** Merges overrides over the defaults; a non-positive or non-integer override is a programming error. */
export function resolveTemplateLimits(overrides: Partial<TemplateLimits> = {}): TemplateLimits {
  const limits: TemplateLimits = { ...defaultTemplateLimits };
  for (const key of Object.keys(defaultTemplateLimits) as (keyof TemplateLimits)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`template limit ${key} must be a positive integer`);
    }
    limits[key] = value;
  }
  return limits;
}
