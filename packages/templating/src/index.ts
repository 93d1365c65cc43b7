/**
 * Template evaluation sandbox: nunjucks source + JSON data -> HTML, for untrusted customers,
 * in QuickJS worker threads. Where it runs, its semantics, limits and errors: docs/templates.md.
 */
import { TemplateError, TemplateOverloadedError, isTemplateErrorCode } from './errors.ts';
import { checkTemplateData } from './data.ts';
import { resolveTemplateLimits, safetyWallMs, type TemplateLimits } from './limits.ts';
import { SandboxPool } from './sandbox-pool.ts';

export { TemplateError, TemplateOverloadedError, templateErrorCodes } from './errors.ts';
export type { FieldReason, TemplateErrorCode, TemplateErrorDetail } from './errors.ts';
export { defaultTemplateLimits, resolveTemplateLimits } from './limits.ts';
export type { TemplateLimits } from './limits.ts';
export { canonicalJson, checkTemplateData } from './data.ts';
export { type CanvasPage, findCanvasPages } from './canvas-pages.ts';
// The calling thread's CPU time, for bounds that must not depend on the machine's load.
export { threadCpuMs } from './thread-cpu.mjs';

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
  /**
   * Wall time after which an evaluation still under timeMs of CPU is refused as overloaded (the
   * service's SVC_TEMPLATE_OVERLOAD_SECONDS); unset: safetyWallMs(timeMs), at least 10 s.
   */
  overloadWallMs?: number;
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
  const { overloadWallMs = safetyWallMs(limits.timeMs) } = input;
  if (!Number.isSafeInteger(overloadWallMs) || overloadWallMs < 1) throw new RangeError('overloadWallMs must be a positive integer');

  const outcome = await pool.run(
    {
      source: input.source,
      // Insertion order, not canonical order: `{% for key, value in object %}` follows the request.
      dataJson: JSON.stringify(input.data),
      limits: {
        outputChars: limits.outputChars,
        timeMs: limits.timeMs,
        safetyMs: overloadWallMs,
        memoryBytes: limits.memoryBytes,
        renderDepth: limits.renderDepth,
        workUnits: limits.workUnits,
      },
    },
    { tenant: input.tenant, onWork: input.onWork },
  );
  if (!outcome.ok) {
    if (outcome.code === 'overloaded') throw new TemplateOverloadedError();
    const code = isTemplateErrorCode(outcome.code) ? outcome.code : 'template_evaluation_error';
    throw new TemplateError(code, { line: outcome.line, column: outcome.column, variable: outcome.name, kind: outcome.kind, problem: outcome.problem });
  }
  if (outcome.html.length > limits.outputChars) throw new TemplateError('template_output_limit');
  return { html: outcome.html };
}
