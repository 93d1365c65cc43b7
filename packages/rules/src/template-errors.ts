import type { FieldReason } from './field-reasons.ts';

/** Codes of the template sandbox when a source is checked or evaluated, with the FieldDetail reason of each. */
export const templateErrorReasons = {
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
} as const satisfies Record<string, FieldReason>;

export type TemplateErrorCode = keyof typeof templateErrorReasons;

export const templateErrorCodes = Object.keys(templateErrorReasons) as TemplateErrorCode[];

export function isTemplateErrorCode(value: unknown): value is TemplateErrorCode {
  return typeof value === 'string' && Object.hasOwn(templateErrorReasons, value);
}
