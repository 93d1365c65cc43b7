import type { FieldDetail } from '@svc/contracts';
import { checkTemplateData, evaluateTemplate, TemplateError } from '@svc/templating';
import { DomainError } from '../shared/errors.ts';

/**
 * Evaluates a template source with data in the sandbox. Data-limit errors point into the data
 * (spec 7: "data" followed by a JSON Pointer); the others at `sourceField` with line and column.
 */
export async function evaluateSource(source: string, data: Record<string, unknown>, sourceField: string): Promise<string> {
  try {
    checkTemplateData(data);
    return (await evaluateTemplate({ source, data })).html;
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    const field = error.code.startsWith('template_data_') ? `data${error.pointer ?? ''}` : sourceField;
    const detail: FieldDetail = {
      field,
      reason: error.reason,
      ...(error.line ? { line: error.line } : {}),
      ...(error.column ? { column: error.column } : {}),
    };
    throw new DomainError(error.code, { details: [detail] });
  }
}

/** The data limits alone (depth, collection size, bytes), checked before a schema walks the data. */
export async function checkDataLimits(data: Record<string, unknown>): Promise<void> {
  try {
    checkTemplateData(data);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    throw new DomainError(error.code, { details: [{ field: `data${error.pointer ?? ''}`, reason: error.reason }] });
  }
}
