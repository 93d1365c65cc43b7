// Draws a barcode or 2D code as one SVG element. QR codes (qr, epc) are encoded by qrcode (its
// core, which uses no Node or browser API), a few times faster than bwip-js and drawn here as one
// path of rectangles; every other kind by bwip-js (Barcode Writer in Pure PostScript, in its
// generic build), the Swiss QR code for its cross and fixed 46 mm drawing. This file checks the
// input first so that a wrong value is a CodeError naming the field, sizes the drawing and adds
// the quiet zone and a white background. The SVG holds paths
// only (the human-readable digits of EAN and UPC are paths too): no script, no text to lay out,
// no external reference, so it is the same in a PDF at any zoom and in an image.
import bwipjs from 'bwip-js/generic';
import qrcode from 'qrcode/lib/core/qrcode.js';
import { lengthInInches, lengthPattern } from '@svc/rules/lengths';
import { CodeError } from './code-error.mjs';
import { gtinCheckDigit } from './check-digits.mjs';
import { checkEpcPayload } from './epc-payload.mjs';
import { codePoint } from './payload-fields.mjs';
import { checkSwissQrBillPayload } from './swiss-qr-bill-payload.mjs';

/** @typedef {import('./index.mjs').CodeKind} CodeKind */
/** @typedef {import('./index.mjs').CodeOptions} CodeOptions */
/** @typedef {import('./index.mjs').DrawCodeInput} DrawCodeInput */
/** @typedef {import('./index.mjs').ErrorCorrectionLevel} ErrorCorrectionLevel */

export const codeKinds = /** @type {const} */ (['qr', 'code128', 'ean13', 'upca', 'datamatrix', 'pdf417', 'swissqr', 'epc']);
export const errorCorrectionLevels = /** @type {const} */ (['L', 'M', 'Q', 'H']);

/** Per kind: bwip-js's symbology (qr and epc: the symbology qrcode encodes), the default quiet zone (the symbology's minimum or more), the length cap and the default module size. */
export const codeKindRules = {
  qr: { bcid: 'qrcode', label: 'QR code', named: 'a QR code', quietZone: 4, maxBytes: 2953, moduleMm: 0.5, linear: false },
  epc: { bcid: 'qrcode', label: 'EPC QR code', named: 'an EPC QR code', quietZone: 4, maxBytes: 331, moduleMm: 0.5, linear: false },
  swissqr: { bcid: 'swissqrcode', label: 'Swiss QR code', named: 'a Swiss QR code', quietZone: 0, maxBytes: 997 * 2, moduleMm: 0, linear: false },
  datamatrix: { bcid: 'datamatrix', label: 'Data Matrix', named: 'a Data Matrix', quietZone: 2, maxBytes: 1556, moduleMm: 0.5, linear: false },
  pdf417: { bcid: 'pdf417', label: 'PDF417', named: 'a PDF417', quietZone: 2, maxBytes: 1850, moduleMm: 0.33, linear: false },
  code128: { bcid: 'code128', label: 'Code 128', named: 'a Code 128', quietZone: 10, maxBytes: 80, moduleMm: 0.33, linear: true },
  ean13: { bcid: 'ean13', label: 'EAN-13', named: 'an EAN-13', quietZone: 11, maxBytes: 13, moduleMm: 0.33, linear: true },
  upca: { bcid: 'upca', label: 'UPC-A', named: 'a UPC-A', quietZone: 9, maxBytes: 12, moduleMm: 0.33, linear: true },
};

/** QR capacity in bytes (version 40) per error correction level: a longer value is refused before encoding. */
const QR_BYTES = { L: 2953, M: 2331, Q: 1663, H: 1273 };
/** The Swiss QR code is 46 x 46 mm (without quiet zone) in a QR-bill. */
const SWISS_QR_MM = 46;
/** @type {Partial<Record<CodeKind, number>>} The bars' height at the default size: EAN and UPC at nominal size, Code 128 a common label height. */
const DEFAULT_BAR_MM = { code128: 15, ean13: 22.85, upca: 22.85 };
/** @type {Partial<Record<CodeKind, number>>} A module is this many units of the drawing: bwip-js's at scale 1 (linear bars are 1 unit a module), and a QR code's drawn here the same. */
const UNITS_PER_MODULE = { qr: 2, epc: 2, datamatrix: 2, pdf417: 1, code128: 1, ean13: 1, upca: 1 };
/** The Swiss QR code's drawing is a fixed 130 units (46 mm in points) times the scale, its modules rounded to whole units: drawn at scale 8 they stay within 6% of their size. */
const SWISS_SCALE = 8;

const utf8Bytes = (/** @type {string} */ text) => new TextEncoder().encode(text).byteLength;

/** @param {CodeKind} kind @param {string} text @param {CodeOptions} options */
function checkValue(kind, text, options) {
  const rules = codeKindRules[kind];
  if (typeof text !== 'string' || text === '') throw new CodeError('value', 'missing', `${rules.named} needs a value`);
  const bytes = utf8Bytes(text);
  const cap = kind === 'qr' ? QR_BYTES[options.ecc ?? 'M'] : rules.maxBytes;
  if (bytes > cap) throw new CodeError('value', 'too_long', `is ${bytes} bytes, ${rules.named}${kind === 'qr' ? ` at error correction ${options.ecc ?? 'M'}` : ''} holds at most ${cap}`);
  if (kind === 'ean13' || kind === 'upca') {
    const digits = kind === 'ean13' ? 13 : 12;
    if (!new RegExp(`^[0-9]{${digits - 1},${digits}}$`).test(text)) throw new CodeError('value', 'invalid_format', `${rules.named} is ${digits - 1} digits, or ${digits} with the check digit`);
    if (text.length === digits) {
      const expected = gtinCheckDigit(text.slice(0, -1));
      if (Number(text.at(-1)) !== expected) throw new CodeError('value', 'check_digit', `wrong check digit ${text.at(-1)}: the ${rules.label} check digit of these digits is ${expected}`);
    }
  }
  if (kind === 'code128') {
    for (const [position, character] of [...text].entries()) {
      if (character < ' ' || character > '~') throw new CodeError('value', 'invalid_character', `character ${codePoint(character)} at position ${position + 1} cannot be encoded in Code 128 (printable ASCII only)`);
    }
  }
  if (kind === 'epc') checkEpcPayload(text);
  if (kind === 'swissqr') checkSwissQrBillPayload(text);
}

/** @param {CodeKind} kind @param {CodeOptions} options */
function checkOptions(kind, options) {
  const rules = codeKindRules[kind];
  if (options.ecc !== undefined) {
    if (!errorCorrectionLevels.includes(options.ecc)) throw new CodeError('ecc', 'invalid_option', 'must be L, M, Q or H');
    if (kind !== 'qr' && !((kind === 'epc' || kind === 'swissqr') && options.ecc === 'M')) {
      throw new CodeError('ecc', 'invalid_option', kind === 'epc' || kind === 'swissqr' ? `${rules.named} is always at error correction M` : `only a QR code has an error correction level`);
    }
  }
  if (options.quietZone !== undefined && !(Number.isInteger(options.quietZone) && options.quietZone >= 0 && options.quietZone <= 40)) {
    throw new CodeError('quietZone', 'invalid_option', 'must be a whole number of modules, 0 to 40');
  }
  for (const field of /** @type {const} */ (['size', 'height'])) {
    const value = options[field];
    if (value === undefined) continue;
    if (!lengthPattern.test(value) || !(lengthInInches(value) > 0)) throw new CodeError(field, 'invalid_option', 'must be a length above 0 with unit px, mm, cm or in (40mm)');
    if (lengthInInches(value) > 40) throw new CodeError(field, 'out_of_range', 'must be at most 40 inches');
  }
  if (options.height !== undefined && !rules.linear) throw new CodeError('height', 'invalid_option', `${rules.named} takes its height from its size`);
  if (options.humanReadable !== undefined && !rules.linear) throw new CodeError('humanReadable', 'invalid_option', `only Code 128, EAN-13 and UPC-A print their digits`);
}

/** The encoders' errors say what failed in words of their own (bwipp.qrcodeInputTooLong#27120: The input data is too long; qrcode: The amount of data is too big to be stored in a QR Code). */
/** @param {CodeKind} kind @param {unknown} error */
function encoderError(kind, error) {
  const raw = error instanceof Error ? error.message : String(error);
  const message = raw.replace(/^bwipp\.\w+#\d+:\s*/, '').replace(/^bwip-js:\s*/, '');
  const tooLong = /too ?long|too big|maximum length|exceed/i.test(raw);
  return new CodeError('value', tooLong ? 'too_long' : 'invalid_format', tooLong ? `too long for ${codeKindRules[kind].named}` : `cannot be drawn as ${codeKindRules[kind].named}: ${message}`);
}

/** @param {string} text @returns {{ value: number, unit: string }} */
function parseLength(text) {
  const match = /** @type {RegExpExecArray} */ (lengthPattern.exec(text));
  return { value: Number(match[1]), unit: match[2] };
}

const round = (/** @type {number} */ value) => Number(value.toFixed(4));

/**
 * The symbol as one SVG element with width, height and viewBox. Throws a CodeError for a value
 * the symbology cannot carry (with the field and the rule) or an option out of range.
 * @param {DrawCodeInput} input
 * @returns {string}
 */
export function drawCode({ kind, text, options = {} }) {
  if (!codeKinds.includes(kind)) throw new CodeError('kind', 'invalid_kind', `must be one of ${codeKinds.join(', ')}`);
  const rules = codeKindRules[kind];
  checkOptions(kind, options);
  checkValue(kind, text, options);
  const quietZone = options.quietZone ?? rules.quietZone;
  const humanReadable = options.humanReadable ?? (kind === 'ean13' || kind === 'upca');

  // the bars' height: bwip-js takes it in mm at 1 unit (a module) per point, so the height in modules is converted to those mm
  let barModules = 0;
  if (rules.linear) {
    const barMm = options.height ? lengthInInches(options.height) * 25.4 : DEFAULT_BAR_MM[kind];
    const moduleMm = options.size ? undefined : rules.moduleMm;
    barModules = moduleMm ? barMm / moduleMm : 0;
    if (!moduleMm) {
      // the module follows from the width asked for: a first drawing measures the symbol's width in modules
      const width = symbolUnits(kind, text, { humanReadable, barModules: 10 }).width + 2 * quietZone;
      barModules = barMm / ((lengthInInches(options.size) * 25.4) / width);
    }
  }
  const drawn = symbolUnits(kind, text, { ecc: kind === 'qr' ? (options.ecc ?? 'M') : 'M', humanReadable, barModules });
  // the Swiss code's modules are known only from the encoder's matrix, read when a margin needs them
  const unitsPerModule = kind !== 'swissqr' ? UNITS_PER_MODULE[kind] : quietZone > 0 ? drawn.width / swissModules(text) : 0;
  const margin = quietZone * unitsPerModule;
  // a linear code's quiet zone is at its sides; above and below, two modules keep the bars off their neighbours
  const marginY = rules.linear ? Math.min(margin, 2) : margin;
  const box = { x: -margin, y: -marginY, width: drawn.width + 2 * margin, height: drawn.height + 2 * marginY };

  let width;
  if (options.size) width = parseLength(options.size);
  else if (kind === 'swissqr') width = { value: round((SWISS_QR_MM * box.width) / drawn.width), unit: 'mm' };
  else width = { value: round((box.width / unitsPerModule) * rules.moduleMm), unit: 'mm' };
  const height = { value: round((width.value * box.height) / box.width), unit: width.unit };

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width.value}${width.unit}" height="${height.value}${height.unit}" ` +
    `viewBox="${round(box.x)} ${round(box.y)} ${round(box.width)} ${round(box.height)}" role="img" aria-label="${rules.label}" shape-rendering="crispEdges">` +
    `<rect x="${round(box.x)}" y="${round(box.y)}" width="${round(box.width)}" height="${round(box.height)}" fill="#ffffff"/>` +
    drawn.body +
    '</svg>'
  );
}

/**
 * The drawing's width and height in its units, and its elements without an svg element of their own
 * (bwip-js's is taken off).
 * @param {CodeKind} kind @param {string} text
 * @param {{ ecc?: ErrorCorrectionLevel, humanReadable?: boolean, barModules?: number }} settings
 * @returns {{ width: number, height: number, body: string }}
 */
function symbolUnits(kind, text, settings) {
  if (kind === 'qr' || kind === 'epc') return qrUnits(qrMatrix(kind, text, settings.ecc ?? 'M'));
  const rules = codeKindRules[kind];
  /** @type {Record<string, unknown>} */
  const options = { bcid: rules.bcid, text, scale: kind === 'swissqr' ? SWISS_SCALE : 1, barcolor: '000000' };
  if (rules.linear) {
    options.includetext = settings.humanReadable;
    options.height = ((settings.barModules ?? 10) * 25.4) / 72;
  }
  let svg;
  try {
    svg = bwipjs.toSVG(/** @type {any} */ (options));
  } catch (error) {
    throw encoderError(kind, error);
  }
  const viewBox = /viewBox="0 0 ([0-9.]+) ([0-9.]+)"/.exec(svg);
  if (!viewBox) throw new Error('bwip-js drew an SVG without a viewBox');
  let body = svg.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  // the Swiss cross is cut out of the code with a clip path: its id is made unique to this drawing,
  // so two codes of one document never share one
  if (body.includes('id="clip0"')) {
    const id = `svc-code-${hash(body)}`;
    body = body.replaceAll('id="clip0"', `id="${id}"`).replaceAll('url(#clip0)', `url(#${id})`);
  }
  return { width: Number(viewBox[1]), height: Number(viewBox[2]), body: body.trim() };
}

/**
 * A QR code's module matrix, as qrcode encodes it: the value's UTF-8 bytes without an ECI (as
 * bwip-js encoded them), in the shortest mix of numeric, alphanumeric and byte segments.
 * @param {CodeKind} kind @param {string} text @param {ErrorCorrectionLevel} ecc
 * @returns {{ size: number, dark: Uint8Array }}
 */
function qrMatrix(kind, text, ecc) {
  try {
    const { modules } = qrcode.create(text, { errorCorrectionLevel: ecc });
    return { size: modules.size, dark: modules.data };
  } catch (error) {
    throw encoderError(kind, error);
  }
}

/**
 * The QR matrix drawn as one path: each row's runs of dark modules a rectangle, UNITS_PER_MODULE
 * units a module.
 * @param {{ size: number, dark: Uint8Array }} matrix
 * @returns {{ width: number, height: number, body: string }}
 */
function qrUnits({ size, dark }) {
  const unit = UNITS_PER_MODULE.qr ?? 2;
  let path = '';
  for (let row = 0; row < size; row += 1) {
    let column = 0;
    while (column < size) {
      if (!dark[row * size + column]) {
        column += 1;
        continue;
      }
      let end = column + 1;
      while (end < size && dark[row * size + end]) end += 1;
      const width = (end - column) * unit;
      path += `M${column * unit} ${row * unit}h${width}v${unit}h-${width}z`;
      column = end;
    }
  }
  return { width: size * unit, height: size * unit, body: `<path d="${path}" fill="#000000"/>` };
}

/** The Swiss QR code's modules a side (its drawing is the same size whatever the version). */
function swissModules(/** @type {string} */ text) {
  const [symbol] = /** @type {Array<{ pixx: number }>} */ (bwipjs.raw('swissqrcode', text, {}));
  return symbol.pixx;
}

/** FNV-1a of the drawing, in hex: the same drawing gets the same id, so a repeated code is harmless too. */
function hash(/** @type {string} */ text) {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value.toString(16).padStart(8, '0');
}

/**
 * The encoder's module matrix of a 2D code, checked as drawCode checks it: what a drawing must
 * show, module for module. A reader's check for symbols that common decoders do not read (PDF417).
 * @param {DrawCodeInput} input
 * @returns {import('./index.mjs').CodeModules}
 */
export function codeModules({ kind, text, options = {} }) {
  if (!codeKinds.includes(kind)) throw new CodeError('kind', 'invalid_kind', `must be one of ${codeKinds.join(', ')}`);
  const rules = codeKindRules[kind];
  if (rules.linear) throw new CodeError('kind', 'invalid_kind', `${rules.named} is bars, not a matrix of modules`);
  checkOptions(kind, options);
  checkValue(kind, text, options);
  if (kind === 'qr' || kind === 'epc') {
    const { size, dark } = qrMatrix(kind, text, kind === 'qr' ? (options.ecc ?? 'M') : 'M');
    return { columns: size, rows: size, rowHeight: 1, modules: Array.from(dark) };
  }
  /** @type {{ pixs: number[], pixx: number, pixy: number }} */
  let symbol;
  try {
    [symbol] = /** @type {any} */ (bwipjs.raw(rules.bcid, text, {}));
  } catch (error) {
    throw encoderError(kind, error);
  }
  // pixy counts a PDF417 row as often as it is high; pixs holds each row once
  const rows = symbol.pixs.length / symbol.pixx;
  return { columns: symbol.pixx, rows, rowHeight: symbol.pixy / rows, modules: [...symbol.pixs] };
}
