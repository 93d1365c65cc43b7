import { type FieldReason, type TemplateErrorCode, templateErrorReasons } from '@svc/rules';
import { templateFix } from './fixes.ts';

export { type FieldReason, isTemplateErrorCode, type TemplateErrorCode, templateErrorCodes } from '@svc/rules';

// The contract's error rules: FieldDetail line and column are integers 1 to 1,000,000.
const maxPosition = 1_000_000;

function position(value: number | undefined): number | undefined {
  return value !== undefined && Number.isInteger(value) && value >= 1 && value <= maxPosition ? value : undefined;
}

export interface TemplateErrorDetail {
  line?: number | undefined;
  column?: number | undefined;
  /** JSON Pointer into data (data limits only), cut at 256 UTF-8 bytes as FieldDetail.field requires. */
  pointer?: string | undefined;
  /** The missing variable as the source names it (template_missing_data): identifiers, dots and whole-number indexes. */
  variable?: string | undefined;
  /** Which porting fix applies, as the sandbox reports it (fixes.ts). */
  kind?: string | undefined;
  /** Why a code filter refused its input (kind "code"): the CodeError's message, naming the field and the rule. */
  problem?: string | undefined;
}

// Only what the sandbox builds from the source's identifiers: it may reach a message.
const variablePattern = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*$/;

/**
 * A template or its data was refused. The message is the code itself: nothing here
 * carries data values, rendered output or evaluator prose, and of the source only the name
 * of a missing variable (identifiers and indexes, at most 100 characters). Where stock nunjucks
 * would have rendered and one line fixes the template, `fix` says it in a sentence (fixes.ts).
 */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
  readonly code: TemplateErrorCode;
  readonly reason: FieldReason;
  readonly line?: number;
  readonly column?: number;
  readonly pointer?: string;
  readonly variable?: string;
  readonly fix?: string;
  /** A code filter's reason (template_invalid_filter_input): "value: wrong check digit 2: the EAN-13 check digit of these digits is 1". */
  readonly problem?: string;

  constructor(code: TemplateErrorCode, detail: TemplateErrorDetail = {}) {
    super(code);
    this.code = code;
    this.reason = templateErrorReasons[code];
    const line = position(detail.line);
    if (line !== undefined) {
      this.line = line;
      const column = position(detail.column);
      if (column !== undefined) this.column = column;
    }
    if (detail.pointer !== undefined) this.pointer = detail.pointer;
    if (code === 'template_missing_data' && detail.variable !== undefined && detail.variable.length <= 100 && variablePattern.test(detail.variable)) {
      this.variable = detail.variable;
    }
    // a code filter's reason is @svc/codes' own text: the field and the rule, never the value
    if (code === 'template_invalid_filter_input' && detail.kind === 'code' && typeof detail.problem === 'string' && detail.problem.length <= 300) {
      this.problem = detail.problem;
    }
    const fix = this.problem !== undefined ? `The code cannot be drawn: ${this.problem}.` : templateFix(code, detail.kind, this.variable);
    if (fix !== undefined) this.fix = fix;
  }
}

/**
 * The machine was too busy to finish an evaluation that stayed within its CPU time: not the
 * template's doing, so no TemplateError; the same request may succeed when retried.
 */
export class TemplateOverloadedError extends Error {
  override readonly name = 'TemplateOverloadedError';

  constructor() {
    super('template evaluation overloaded');
  }
}
