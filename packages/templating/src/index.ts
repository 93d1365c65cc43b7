/**
 * Template evaluation sandbox: nunjucks source + JSON data -> HTML, for untrusted customers.
 *
 * Where it runs. Nunjucks' browser build is loaded into a QuickJS WebAssembly VM, which both
 * compiles and renders; not even compilation happens in Node, because nunjucks' own compiler
 * writes to Object.prototype for some sources (`{% macro "a.__proto__.x"() %}`). Each
 * evaluation gets a fresh WebAssembly instance (own linear memory, capped) that is dropped
 * afterwards: nothing survives from one customer to the next. The VM has no host functions at
 * all, so no process, require, filesystem, module loader or Node global is reachable. The
 * instances live in worker threads (sandbox-worker.mjs) that keep VMs pre-loaded while idle, and
 * the code nunjucks generates is cached by SHA-256 of the source, so the request path pays only
 * for rendering. Measured on the shared two-core test machine (a small template, see the
 * benchmark test): about 2-3 ms median once a source has been seen, about 6-8 ms the first time.
 * Preparing the next VM costs another 13-25 ms of CPU per evaluation on an idle core (nunjucks'
 * slim runtime when the source is cached, the full build otherwise), spent while the worker is
 * idle; under a burst it lands on the request path (about 13 ms per evaluation back-to-back).
 *
 * Semantics. autoescape is on (`| safe` opts out). include, import, from-import and extends
 * are refused at compile time as template_syntax_error at the tag's line and column (a
 * stateless template has nothing to load); unknown filters, likewise, at the filter's name.
 * Outputting or calling an undefined value is template_missing_data; `if`, `for`, `default`
 * and `is defined` still accept undefined values so optional data works; null renders as "".
 * A built-in filter given an input it cannot handle (`{{ 5 | upper }}`, `{{ "x" | round }}`,
 * `{{ {} | join }}`, `{{ "a" | dictsort }}`, or any TypeError inside a filter) is
 * template_invalid_filter_input; the same filters given undefined are template_missing_data.
 * Other run-time failures are template_evaluation_error. `1e12` is read as a number (stock
 * nunjucks reads it as a variable name). The `random` filter has a fixed seed, so the same
 * source and data always give the same HTML. Line and column are 1-based; parse errors at the
 * end of input point at the end of the source.
 *
 * Limits the spec leaves open (defaults in limits.ts; each can be changed per call):
 * - dataDepth 32 nesting levels, dataCollection 10,000 entries per array or object: far beyond
 *   real documents, and they bound every recursion over data.
 * - timeMs 1,000 ms wall clock, compile included -> template_timeout. The VM stops itself at
 *   the deadline through QuickJS's interrupt handler; built-ins that never poll it (generic
 *   array methods on huge array-likes) are cut off by terminating the worker 500 ms later.
 * - workUnits 500 -> template_work_limit. Work is deterministic: QuickJS polls its interrupt
 *   handler once per 10,000 backward jumps, calls or regex steps, and the budget counts the
 *   polls made while rendering, so a template and its data always stop at the same point
 *   whatever the machine's load. 500 polls are about 85,000 nunjucks loop iterations (about
 *   0.5 s on an idle core; a 10,000-row table fits) or 35 ms of a bare JavaScript loop; on a
 *   loaded machine the wall clock can fire first. range() longer than 100,000 numbers is
 *   refused up front with the same code (it could not finish). Compiling is not counted: its
 *   cost follows the size-limited source alone, it is cached, and timeMs bounds it. Measured
 *   first-sight cost: about 0.2 s for 1 MB of plain text or an inline base64 image, about 0.2 s
 *   for 20 KB of tag-dense markup, about 1 s for 80 KB of it; so a tag-dense source much over
 *   50 KB can time out on first sight (the limitation of running nunjucks' compiler in QuickJS).
 * - memoryBytes 64 MiB of QuickJS heap, the loaded nunjucks included. Exhausting it, or QuickJS's
 *   maximum string length (strings are ropes, so doubling bombs hit that first), is
 *   template_work_limit.
 * - renderDepth 100 nested macro calls (recursion included; `caller` blocks count) ->
 *   template_depth_limit; QuickJS's 512 KiB stack limit (deep JavaScript recursion, deeply
 *   nested expressions) maps to the same code.
 * - outputChars 5,242,880 (the saved template rules) for the final HTML and for every output buffer as it grows
 *   (macro bodies and captures included), and for any single value before it is escaped ->
 *   template_output_limit.
 * - sourceBytes and dataBytes are UTF-8 bytes (the render request rules count bytes; the contract's limits say chars for
 *   source, bytes is the stricter reading); data is measured as canonical key-sorted JSON.
 *
 * Errors. TemplateError.message is the code itself and reason is the spec's FieldDetail reason
 * for it; line, column, (for data limits) a JSON Pointer and (for missing data) the variable's
 * name as the source writes it (customer.name, items[0]) are the only details. A worker that
 * cannot be started or crashes throws a plain Error (an internal failure, not the template's).
 */
import { TemplateError, isTemplateErrorCode } from './errors.ts';
import { checkTemplateData } from './data.ts';
import { resolveTemplateLimits, type TemplateLimits } from './limits.ts';
import { SandboxPool } from './sandbox-pool.ts';

export { TemplateError, templateErrorCodes } from './errors.ts';
export type { FieldReason, TemplateErrorCode, TemplateErrorDetail } from './errors.ts';
export { defaultTemplateLimits, resolveTemplateLimits } from './limits.ts';
export type { TemplateLimits } from './limits.ts';
export { canonicalJson, checkTemplateData } from './data.ts';
export { type CanvasPage, findCanvasPages } from './canvas-pages.ts';

export interface EvaluateTemplateInput {
  source: string;
  data: Record<string, unknown>;
  limits?: Partial<TemplateLimits>;
  /**
   * The account the evaluation is for: accounts take turns at the workers, and one account
   * never holds them all (sandbox-pool.ts); its evaluations of one source may share a sandbox
   * (sandbox-worker.mjs). Omitted: the service's own fixed content, in a sandbox of its own.
   */
  tenant?: string;
  /** Told the milliseconds a worker spent on this evaluation, for success and failure alike. */
  onWork?: (ms: number) => void;
}

// Two workers: evaluations overlap with each other and with Chromium on a two-core host.
const pool = new SandboxPool({ workers: 2, killGraceMs: 500, startTimeoutMs: 30_000 });

/**
 * Optional: start one sandbox worker at boot so the first evaluation does not pay for it. The
 * second starts when two evaluations overlap: a worker with its prepared sandboxes holds some
 * 40 MiB, which a process that evaluates no templates (or one at a time) never needs.
 */
export function warmTemplateSandbox(): void {
  pool.warm(1);
}

export async function evaluateTemplate(input: EvaluateTemplateInput): Promise<{ html: string }> {
  const limits = resolveTemplateLimits(input.limits);
  if (typeof input.source !== 'string') throw new TypeError('template source must be a string');
  if (input.data === null || typeof input.data !== 'object' || Array.isArray(input.data)) {
    throw new TypeError('template data must be an object');
  }
  if (Buffer.byteLength(input.source, 'utf8') > limits.sourceBytes) {
    throw new TemplateError('template_source_limit');
  }
  checkTemplateData(input.data, limits);

  const outcome = await pool.run(
    {
      source: input.source,
      // Insertion order, not canonical order: `{% for key, value in object %}` follows the request.
      dataJson: JSON.stringify(input.data),
      limits: {
        outputChars: limits.outputChars,
        timeMs: limits.timeMs,
        memoryBytes: limits.memoryBytes,
        renderDepth: limits.renderDepth,
        workUnits: limits.workUnits,
      },
    },
    { tenant: input.tenant, onWork: input.onWork },
  );
  if (!outcome.ok) {
    const code = isTemplateErrorCode(outcome.code) ? outcome.code : 'template_evaluation_error';
    throw new TemplateError(code, { line: outcome.line, column: outcome.column, variable: outcome.name });
  }
  if (outcome.html.length > limits.outputChars) throw new TemplateError('template_output_limit');
  return { html: outcome.html };
}
