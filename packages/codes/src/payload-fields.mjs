// Field checks the payment payloads share: lengths in characters, amounts with two decimals,
// IBANs and references with their check digits. Each failure is a CodeError naming the field.
import { CodeError } from './code-error.mjs';
import { creditorReferenceChecks, ibanChecks } from './check-digits.mjs';

/**
 * A line of a payload holds no line break: one would shift every field after it.
 * @param {string} field @param {string | undefined} value @param {number} max
 * @param {{ required?: boolean, allowed?: RegExp }} [options]
 * @returns {string}
 */
export function text(field, value, max, options = {}) {
  const trimmed = (value ?? '').trim();
  if (trimmed === '') {
    if (options.required) throw new CodeError(field, 'missing', 'is required');
    return '';
  }
  if (/[\r\n]/.test(trimmed)) throw new CodeError(field, 'invalid_character', 'must be one line (no line breaks)');
  const length = [...trimmed].length;
  if (length > max) throw new CodeError(field, 'too_long', `is ${length} characters, at most ${max} are allowed`);
  if (options.allowed) {
    for (const [position, character] of [...trimmed].entries()) {
      if (!options.allowed.test(character)) {
        throw new CodeError(field, 'invalid_character', `character ${codePoint(character)} at position ${position + 1} is not allowed`);
      }
    }
  }
  return trimmed;
}

/** @param {string} character */
export const codePoint = (character) => `U+${/** @type {number} */ (character.codePointAt(0)).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * An IBAN written with or without spaces, in either case, as the payload carries it.
 * @param {string} field @param {string | undefined} value @param {readonly string[]} [countries]
 */
export function iban(field, value, countries) {
  const compact = (value ?? '').replace(/\s+/g, '').toUpperCase();
  if (compact === '') throw new CodeError(field, 'missing', 'is required');
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(compact)) throw new CodeError(field, 'invalid_format', 'is not an IBAN (two letters, two check digits, 11 to 30 letters or digits)');
  if (countries && !countries.includes(compact.slice(0, 2))) throw new CodeError(field, 'invalid_format', `must be an IBAN of ${countries.join(' or ')}`);
  if (!ibanChecks(compact)) throw new CodeError(field, 'check_digit', 'the IBAN check digits do not match (a mistyped character?)');
  return compact;
}

/** An ISO 11649 creditor reference ("RF" and check digits), written with or without spaces. @param {string} field @param {string} value */
export function creditorReference(field, value) {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (!/^RF[0-9]{2}[A-Z0-9]{1,21}$/.test(compact)) throw new CodeError(field, 'invalid_format', 'is not a creditor reference (RF, two check digits, 1 to 21 letters or digits)');
  if (!creditorReferenceChecks(compact)) throw new CodeError(field, 'check_digit', 'the creditor reference check digits do not match');
  return compact;
}

/** An amount of 0.01 to 999,999,999.99 with at most two decimals, written with two. @param {string} field @param {number | string | undefined} value */
export function amount(field, value) {
  if (value === undefined || value === '') return '';
  const number = typeof value === 'number' ? value : /^[0-9]{1,9}(\.[0-9]{1,2})?$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) throw new CodeError(field, 'invalid_format', 'is not an amount (digits, a dot and at most two decimals)');
  const cents = Math.round(number * 100);
  if (Math.abs(cents - number * 100) > 1e-6) throw new CodeError(field, 'invalid_format', 'has more than two decimals');
  if (cents < 1 || cents > 99_999_999_999) throw new CodeError(field, 'out_of_range', 'must be within 0.01 and 999999999.99');
  return (cents / 100).toFixed(2);
}
