// The Swiss QR code of a QR-bill: "Swiss Implementation Guidelines for the QR-bill" (SIX),
// QR type SPC, version 0200, coding 1 (UTF-8 limited to the Latin character set). One element a
// line, separated by LF, the last without one:
//   SPC / 0200 / 1 / account (IBAN or QR-IBAN, CH or LI)
//   creditor: S / name / street / building number / postal code / town / country
//   ultimate creditor: seven empty lines (reserved for future use)
//   amount / currency (CHF or EUR)
//   debtor: S / name / street / building number / postal code / town / country (or seven empty lines)
//   reference type (QRR, SCOR or NON) / reference / unstructured message / EPD
//   [bill information [/ alternative procedure 1 [/ alternative procedure 2]]]
// Addresses are structured (S): the combined type K is no longer accepted by Swiss banks. The
// code is drawn at error correction M with the Swiss cross in its middle (bwip-js swissqrcode),
// 46 x 46 mm by default.
import { CodeError } from './code-error.mjs';
import { qrReferenceChecks } from './check-digits.mjs';
import { amount, creditorReference, iban, text } from './payload-fields.mjs';

/** @typedef {import('./index.mjs').SwissAddress} SwissAddress */
/** @typedef {import('./index.mjs').SwissQrBillInput} SwissQrBillInput */

/** The whole payload, in characters. */
export const maxSwissQrBillPayloadChars = 997;

/** The Latin character set the guidelines allow: Basic Latin, Latin-1 Supplement, Latin Extended-A, Ș ș Ț ț and €. */
const LATIN = /^[\u0020-\u007E\u00A0-\u017F\u0218-\u021B\u20AC]$/u;

/** @param {string} field @param {SwissAddress | undefined} value @param {boolean} required @returns {string[]} */
function address(field, value, required) {
  if (!value) {
    if (required) throw new CodeError(field, 'missing', 'is required');
    return ['', '', '', '', '', '', ''];
  }
  const country = (value.country ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw new CodeError(`${field}.country`, 'invalid_format', 'must be a two-letter ISO country code');
  return [
    'S',
    text(`${field}.name`, value.name, 70, { required: true, allowed: LATIN }),
    text(`${field}.street`, value.street, 70, { allowed: LATIN }),
    text(`${field}.buildingNumber`, value.buildingNumber, 16, { allowed: LATIN }),
    text(`${field}.postalCode`, value.postalCode, 16, { required: true, allowed: LATIN }),
    text(`${field}.town`, value.town, 35, { required: true, allowed: LATIN }),
    country,
  ];
}

/** A QR-IBAN: an IBAN whose institution id (positions 5 to 9) is 30000 to 31999. */
const isQrIban = (/** @type {string} */ account) => {
  const institution = Number(account.slice(4, 9));
  return institution >= 30000 && institution <= 31999;
};

/** @param {string} account @param {string | undefined} value @returns {[string, string]} */
function reference(account, value) {
  const compact = (value ?? '').replace(/\s+/g, '').toUpperCase();
  if (isQrIban(account)) {
    if (compact === '') throw new CodeError('reference', 'missing', 'a QR-IBAN needs a QR reference (27 digits)');
    if (!/^[0-9]{27}$/.test(compact)) throw new CodeError('reference', 'invalid_format', 'with a QR-IBAN must be a QR reference of 27 digits');
    if (!qrReferenceChecks(compact)) throw new CodeError('reference', 'check_digit', 'the QR reference check digit (modulo 10, recursive) does not match');
    return ['QRR', compact];
  }
  if (compact === '') return ['NON', ''];
  if (/^[0-9]{27}$/.test(compact)) throw new CodeError('reference', 'invalid_format', 'a QR reference needs a QR-IBAN as the account');
  return ['SCOR', creditorReference('reference', compact)];
}

/**
 * The Swiss QR code payload of a QR-bill, validated element by element (fields: index.d.mts, SwissQrBillInput).
 * @param {SwissQrBillInput} input
 * @returns {string}
 */
export function swissQrBillPayload(input) {
  const account = iban('account', input.account, ['CH', 'LI']);
  if (account.length !== 21) throw new CodeError('account', 'invalid_format', 'a CH or LI IBAN has 21 characters');
  const creditor = address('creditor', input.creditor, true);
  const sum = amount('amount', input.amount);
  if (input.currency !== 'CHF' && input.currency !== 'EUR') throw new CodeError('currency', 'invalid_format', 'must be CHF or EUR');
  const debtor = address('debtor', input.debtor, false);
  const [referenceType, referenceValue] = reference(account, input.reference);
  const message = text('message', input.message, 140, { allowed: LATIN });
  const billInformation = text('billInformation', input.billInformation, 140, { allowed: LATIN });
  if ([...message].length + [...billInformation].length > 140) throw new CodeError('billInformation', 'too_long', 'message and bill information are at most 140 characters together');
  const alternatives = input.alternativeProcedures ?? [];
  if (alternatives.length > 2) throw new CodeError('alternativeProcedures', 'too_long', 'at most two alternative procedures');
  const procedures = alternatives.map((procedure, index) => text(`alternativeProcedures.${index}`, procedure, 100, { required: true, allowed: LATIN }));
  const lines = ['SPC', '0200', '1', account, ...creditor, '', '', '', '', '', '', '', sum, input.currency, ...debtor, referenceType, referenceValue, message, 'EPD'];
  if (billInformation !== '' || procedures.length > 0) lines.push(billInformation, ...procedures);
  const payload = lines.join('\n');
  const length = [...payload].length;
  if (length > maxSwissQrBillPayloadChars) throw new CodeError('value', 'too_long', `the payload is ${length} characters, at most ${maxSwissQrBillPayloadChars} are allowed`);
  return payload;
}

/** @param {string} field @param {string[]} lines @param {number} at @returns {SwissAddress | undefined} */
function readAddress(field, lines, at) {
  const [type, name, street, buildingNumber, postalCode, town, country] = lines.slice(at, at + 7);
  if (!type) {
    if (lines.slice(at, at + 7).some((line) => line !== '')) throw new CodeError(`${field}`, 'invalid_format', 'an address without its type line (S) must be all empty lines');
    return undefined;
  }
  if (type !== 'S') throw new CodeError(`${field}`, 'invalid_format', 'the address type must be S (structured)');
  return { name: name ?? '', street, buildingNumber, postalCode: postalCode ?? '', town: town ?? '', country: country ?? '' };
}

/**
 * Checks a payload written by hand (the raw HTML element's value) by reading it into its elements
 * and checking them as swissQrBillPayload does; the payload is drawn as written.
 * @param {string} payload
 */
export function checkSwissQrBillPayload(payload) {
  const length = [...payload].length;
  if (length > maxSwissQrBillPayloadChars) throw new CodeError('value', 'too_long', `the payload is ${length} characters, at most ${maxSwissQrBillPayloadChars} are allowed`);
  const lines = payload.split(/\r?\n/);
  if (lines[0] !== 'SPC') throw new CodeError('value', 'invalid_format', 'a Swiss QR-bill payload starts with the line SPC');
  if (lines[1] !== '0200') throw new CodeError('value', 'invalid_format', 'the version line must be 0200');
  if (lines[2] !== '1') throw new CodeError('value', 'invalid_format', 'the coding line must be 1');
  if (lines.length < 31 || lines[30] !== 'EPD') throw new CodeError('value', 'invalid_format', 'the 31st line must be the trailer EPD (a line missing or one too many before it?)');
  if (lines.length > 34) throw new CodeError('value', 'too_long', 'at most bill information and two alternative procedures follow EPD');
  if (lines.slice(11, 18).some((line) => line !== '')) throw new CodeError('ultimateCreditor', 'invalid_format', 'must be seven empty lines (reserved for future use)');
  const creditor = readAddress('creditor', lines, 4);
  if (!creditor) throw new CodeError('creditor', 'missing', 'is required');
  const currency = lines[19];
  if (currency !== 'CHF' && currency !== 'EUR') throw new CodeError('currency', 'invalid_format', 'must be CHF or EUR');
  const account = lines[3] ?? '';
  const [referenceType, referenceValue] = [lines[27], lines[28] ?? ''];
  const expectedType = isQrIban(account.toUpperCase()) ? 'QRR' : referenceValue === '' ? 'NON' : 'SCOR';
  if (referenceType !== expectedType) throw new CodeError('referenceType', 'invalid_format', `must be ${expectedType} for this account and reference`);
  if (account !== account.replace(/\s+/g, '').toUpperCase()) throw new CodeError('account', 'invalid_format', 'is written without spaces, in upper case');
  swissQrBillPayload({
    account,
    creditor,
    amount: lines[18] === '' ? undefined : lines[18],
    currency,
    debtor: readAddress('debtor', lines, 20),
    reference: referenceValue,
    message: lines[29],
    billInformation: lines[31],
    alternativeProcedures: lines.slice(32),
  });
}
