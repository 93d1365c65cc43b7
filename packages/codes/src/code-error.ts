// The one error every function of this package throws for input it cannot draw or build: which
// field is wrong and why, in words a person can act on. The message names the field and the
// rule, never repeats the input itself (a character is named by its code point).

export const codeErrorReasons = ['invalid_kind', 'invalid_option', 'invalid_character', 'invalid_format', 'check_digit', 'too_long', 'out_of_range', 'missing'] as const;
export type CodeErrorReason = (typeof codeErrorReasons)[number];

export class CodeError extends Error {
  readonly code = 'code_invalid_input';
  /** the field at fault: "value" for a symbol's text, an option's name, or a payload field ("iban", "creditor.town") */
  readonly field: string;
  readonly reason: CodeErrorReason;

  constructor(field: string, reason: CodeErrorReason, message: string) {
    super(`${field}: ${message}`);
    this.name = 'CodeError';
    this.field = field;
    this.reason = reason;
  }
}

export function isCodeError(error: unknown): error is CodeError {
  return error instanceof CodeError;
}
