// The EPC QR code ("GiroCode") of a SEPA credit transfer: EPC069-12 "Quick Response Code:
// Guidelines to Enable Data Capture for the Initiation of a SEPA Credit Transfer", version 002
// of the data, character set 1 (UTF-8). One field a line, in this order:
//   BCD / 002 / 1 / SCT / BIC / name / IBAN / EUR amount / purpose / structured reference /
//   unstructured text / information to the payer
// Trailing empty lines are left out; the whole payload is at most 331 bytes, and the code is drawn
// at error correction M as the guidelines ask.
import { CodeError } from './code-error.mjs';
import { amount, creditorReference, iban, text } from './payload-fields.mjs';

/** The payload the guidelines allow at most, in UTF-8 bytes. */
export const maxEpcPayloadBytes = 331;

const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/**
 * The EPC QR payload of a credit transfer, validated field by field (fields: index.d.mts, EpcPayloadInput).
 * @param {import('./index.mjs').EpcPayloadInput} input
 * @returns {string}
 */
export function epcPayload(input) {
  if ((input.currency ?? 'EUR') !== 'EUR') throw new CodeError('currency', 'invalid_format', 'must be EUR (SEPA credit transfers are in euros)');
  const bic = (input.bic ?? '').replace(/\s+/g, '').toUpperCase();
  if (bic !== '' && !BIC.test(bic)) throw new CodeError('bic', 'invalid_format', 'is not a BIC (8 or 11 letters and digits)');
  const name = text('name', input.name, 70, { required: true });
  const account = iban('iban', input.iban);
  const sum = amount('amount', input.amount);
  const purpose = (input.purpose ?? '').trim().toUpperCase();
  if (purpose !== '' && !/^[A-Z0-9]{4}$/.test(purpose)) throw new CodeError('purpose', 'invalid_format', 'is not a purpose code (4 letters or digits)');
  let reference = text('reference', input.reference, 35);
  if (reference.toUpperCase().startsWith('RF')) reference = creditorReference('reference', reference);
  const remittance = text('text', input.text, 140);
  if (reference !== '' && remittance !== '') throw new CodeError('text', 'invalid_format', 'cannot be given with a reference: the transfer carries one or the other');
  const information = text('information', input.information, 70);
  const lines = ['BCD', '002', '1', 'SCT', bic, name, account, sum === '' ? '' : `EUR${sum}`, purpose, reference, remittance, information];
  while (lines.at(-1) === '') lines.pop();
  const payload = lines.join('\n');
  const bytes = new TextEncoder().encode(payload).byteLength;
  if (bytes > maxEpcPayloadBytes) throw new CodeError('value', 'too_long', `the payload is ${bytes} bytes, at most ${maxEpcPayloadBytes} are allowed`);
  return payload;
}

/**
 * Checks a payload written by hand (the raw HTML element's value) by reading it into its fields
 * and checking them as epcPayload does; the payload is drawn as written. Version 001 (BIC
 * required) is read too.
 * @param {string} payload
 */
export function checkEpcPayload(payload) {
  const bytes = new TextEncoder().encode(payload).byteLength;
  if (bytes > maxEpcPayloadBytes) throw new CodeError('value', 'too_long', `the payload is ${bytes} bytes, at most ${maxEpcPayloadBytes} are allowed`);
  const lines = payload.split(/\r?\n/);
  if (lines[0] !== 'BCD') throw new CodeError('value', 'invalid_format', 'an EPC payload starts with the line BCD');
  if (lines[1] !== '001' && lines[1] !== '002') throw new CodeError('value', 'invalid_format', 'the version line must be 001 or 002');
  if (lines[2] !== '1') throw new CodeError('value', 'invalid_format', 'the character set line must be 1 (UTF-8)');
  if (lines[3] !== 'SCT') throw new CodeError('value', 'invalid_format', 'the identification line must be SCT');
  if (lines.length > 12) throw new CodeError('value', 'too_long', 'an EPC payload has at most 12 lines');
  if (lines[1] === '001' && !lines[4]) throw new CodeError('bic', 'missing', 'is required in version 001');
  const sum = lines[7] ?? '';
  if (sum !== '' && !/^EUR[0-9]{1,9}(\.[0-9]{1,2})?$/.test(sum)) throw new CodeError('amount', 'invalid_format', 'must be EUR followed by the amount (EUR12.30)');
  const field = (/** @type {number} */ index) => lines[index] ?? '';
  epcPayload({
    bic: field(4),
    name: field(5),
    iban: field(6),
    amount: sum === '' ? undefined : sum.slice(3),
    purpose: field(8),
    reference: field(9),
    text: field(10),
    information: field(11),
  });
}
