import { errorDefinition, type FieldDetail, missingDataMessage } from '@svc/contracts';
import type { TemplateError } from '@svc/templating';
import { DomainError } from '../shared/errors.ts';

/** Seconds a client is told to wait when the machine was too busy to finish an evaluation. */
const overloadRetrySeconds = 5;

/**
 * A template's refusal as the API answers it: the code and FieldDetail reason unchanged, the
 * detail pointing at `field` (line and column when known), and the message saying the one-line
 * fix where the sandbox knows one (docs/templates.md, Porting from Nunjucks).
 */
export function templateRefusal(error: TemplateError, field: string): DomainError {
  const detail: FieldDetail = {
    field,
    reason: error.reason,
    ...(error.line ? { line: error.line } : {}),
    ...(error.column ? { column: error.column } : {}),
  };
  const clientMessage = templateErrorMessage(error);
  return new DomainError(error.code, { details: [detail], ...(clientMessage ? { clientMessage } : {}) });
}

/** The message naming the missing variable and the fix, when there is one; else the table's fixed message. */
function templateErrorMessage(error: TemplateError): string | undefined {
  if (error.code === 'template_missing_data') return missingDataMessage(error.variable, error.line, error.fix);
  return error.fix ? `${errorDefinition(error.code).message} ${error.fix}` : undefined;
}

/**
 * The machine was too busy to finish an evaluation (or a schema's check) within its CPU time:
 * 503 overloaded with a retry, never a template error, so the outcome does not depend on load.
 */
export function machineOverloaded(): DomainError {
  return new DomainError('overloaded', { retryAfterSeconds: overloadRetrySeconds });
}
