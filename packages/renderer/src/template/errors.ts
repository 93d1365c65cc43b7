export const templateErrorCodes = [
  'template_syntax_error',
  'template_evaluation_error',
  'template_missing_data',
  'template_invalid_filter_input',
  'template_timeout',
  'template_output_limit',
  'template_work_limit',
  'template_depth_limit',
  'template_data_depth_limit',
  'template_data_collection_limit',
  'template_data_limit',
  'template_source_limit',
] as const;

export type TemplateErrorCode = (typeof templateErrorCodes)[number];

/** The fixed FieldDetail reasons of spec part 7 (kept local: the renderer imports no workspace package). */
export type FieldReason =
  | 'malformed JSON'
  | 'missing field'
  | 'unknown field'
  | 'wrong type'
  | 'invalid value'
  | 'A required value is missing.'
  | 'Use the expected value type.'
  | 'Declare this variable before using it.'
  | 'Choose an allowed value.'
  | 'Use the required format.'
  | 'Add a value.'
  | 'Use a shorter value.'
  | 'Use a number within the allowed range.'
  | 'Check this value against its data rule.';

const reasons: Record<TemplateErrorCode, FieldReason> = {
  template_syntax_error: 'Use the required format.',
  template_evaluation_error: 'invalid value',
  template_missing_data: 'Declare this variable before using it.',
  template_invalid_filter_input: 'Use the expected value type.',
  template_timeout: 'invalid value',
  template_output_limit: 'Use a shorter value.',
  template_work_limit: 'invalid value',
  template_depth_limit: 'invalid value',
  template_data_depth_limit: 'invalid value',
  template_data_collection_limit: 'Use a shorter value.',
  template_data_limit: 'Use a shorter value.',
  template_source_limit: 'Use a shorter value.',
};

export function isTemplateErrorCode(value: unknown): value is TemplateErrorCode {
  return typeof value === 'string' && (templateErrorCodes as readonly string[]).includes(value);
}

// Spec part 7: FieldDetail line and column are integers 1 to 1,000,000.
const maxPosition = 1_000_000;

function position(value: number | undefined): number | undefined {
  return value !== undefined && Number.isInteger(value) && value >= 1 && value <= maxPosition ? value : undefined;
}

export interface TemplateErrorDetail {
  line?: number | undefined;
  column?: number | undefined;
  /** JSON Pointer into data (data limits only), cut at 256 UTF-8 bytes as FieldDetail.field requires. */
  pointer?: string | undefined;
}

/**
 * A template or its data was refused. The message is the code itself: nothing here
 * ever carries template source, data values, rendered output or evaluator prose.
 */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
  readonly code: TemplateErrorCode;
  readonly reason: FieldReason;
  readonly line?: number;
  readonly column?: number;
  readonly pointer?: string;

  constructor(code: TemplateErrorCode, detail: TemplateErrorDetail = {}) {
    super(code);
    this.code = code;
    this.reason = reasons[code];
    const line = position(detail.line);
    if (line !== undefined) {
      this.line = line;
      const column = position(detail.column);
      if (column !== undefined) this.column = column;
    }
    if (detail.pointer !== undefined) this.pointer = detail.pointer;
  }
}
