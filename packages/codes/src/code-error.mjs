// The one error every function of this package throws for input it cannot draw or build: which
// field is wrong and why, in words a person can act on. The message names the field and the
// rule, never repeats the input itself (a character is named by its code point).

export const codeErrorReasons = /** @type {const} */ (['invalid_kind', 'invalid_option', 'invalid_character', 'invalid_format', 'check_digit', 'too_long', 'out_of_range', 'missing']);

export class CodeError extends Error {
  /**
   * @param {string} field the field at fault: "value" for a symbol's text, an option's name, or a payload field ("iban", "creditor.town")
   * @param {(typeof codeErrorReasons)[number]} reason
   * @param {string} message
   */
  constructor(field, reason, message) {
    super(`${field}: ${message}`);
    this.name = 'CodeError';
    this.code = 'code_invalid_input';
    this.field = field;
    this.reason = reason;
  }
}

/** @param {unknown} error */
export function isCodeError(error) {
  return error instanceof CodeError;
}
