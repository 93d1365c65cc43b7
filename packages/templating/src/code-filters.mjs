// The code filters' host side (qrcode, barcode, epc_qr, swiss_qr; docs/templates.md, "Barcodes
// and QR codes"): the guest hands over the filter's name, its input (text, or a payment object
// as JSON) and its options as JSON; @svc/codes checks them and draws the SVG, synchronously, on
// the sandbox worker's own thread. Plain JavaScript, so that the worker loads it directly.
import { CodeError, drawCode, epcPayload, isCodeError, swissQrBillPayload } from '@svc/codes';

/** The options a code filter takes, as the template names them (CodeOptions'), and their types. */
const optionTypes = { kind: 'string', ecc: 'string', size: 'string', height: 'string', quietZone: 'number', humanReadable: 'boolean' };

/**
 * Draws one filter call: { ok: true, svg } or { ok: false, message } with CodeError's message
 * (the field and the rule, never the input itself). Anything else the guest sends is refused too.
 * @param {unknown} filter @param {unknown} input @param {unknown} optionsJson
 * @returns {{ ok: true, svg: string } | { ok: false, message: string }}
 */
export function drawForFilter(filter, input, optionsJson) {
  try {
    if (typeof input !== 'string' || typeof optionsJson !== 'string') throw new CodeError('value', 'invalid_format', 'must be text');
    const options = readOptions(optionsJson);
    const { kind: written, ...codeOptions } = options;
    /** @type {import('@svc/codes').CodeKind} */
    let kind;
    let text = input;
    if (filter === 'qrcode') kind = 'qr';
    else if (filter === 'barcode') kind = /** @type {import('@svc/codes').CodeKind} */ (written);
    else if (filter === 'epc_qr' || filter === 'swiss_qr') {
      kind = filter === 'epc_qr' ? 'epc' : 'swissqr';
      const fields = JSON.parse(input);
      text = filter === 'epc_qr' ? epcPayload(fields) : swissQrBillPayload(fields);
    } else throw new CodeError('kind', 'invalid_kind', 'is not a code filter');
    if (written !== undefined && filter !== 'barcode') throw new CodeError('kind', 'invalid_option', `${filter} draws one kind: use barcode to name the kind`);
    return { ok: true, svg: drawCode({ kind, text, options: codeOptions }) };
  } catch (error) {
    if (isCodeError(error)) return { ok: false, message: error.message };
    return { ok: false, message: 'value: cannot be drawn' };
  }
}

/** @param {string} optionsJson @returns {Record<string, unknown>} */
function readOptions(optionsJson) {
  const options = JSON.parse(optionsJson);
  /** @type {Record<string, unknown>} */
  const read = {};
  for (const [name, value] of Object.entries(options)) {
    if (!Object.hasOwn(optionTypes, name)) throw new CodeError('options', 'invalid_option', `a code filter takes ${Object.keys(optionTypes).join(', ')}`);
    const type = optionTypes[/** @type {keyof typeof optionTypes} */ (name)];
    if (typeof value !== type) throw new CodeError(name, 'invalid_option', `must be a ${type}`);
    read[name] = name === 'ecc' || name === 'kind' ? String(value).trim()[name === 'ecc' ? 'toUpperCase' : 'toLowerCase']() : value;
  }
  return read;
}
