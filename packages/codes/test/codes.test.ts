// @svc/codes without a browser: what each kind draws (an SVG of paths sized as asked), the
// errors that name the field and the rule, and the EPC and Swiss QR-bill payloads laid out as
// their specifications write them. Decoding what was rendered is packages/renderer/test/codes.test.ts.
import bwipjs from 'bwip-js/generic';
import { describe, expect, test } from 'vitest';
import { drawingCacheSize } from '../src/drawing-cache.mjs';
import { CodeError, checkEpcPayload, codeModules, checkSwissQrBillPayload, codeKinds, drawCode, epcPayload, swissQrBillPayload, type CodeKind, type DrawCodeInput, type SwissQrBillInput } from '../src/index.mjs';

/** The example bill of the Swiss Implementation Guidelines for the QR-bill (QR-IBAN with QR reference). */
const SIX_EXAMPLE: SwissQrBillInput = {
  account: 'CH44 3199 9123 0008 8901 2',
  creditor: { name: 'Robert Schneider AG', street: 'Rue du Lac', buildingNumber: '1268', postalCode: '2501', town: 'Biel', country: 'CH' },
  amount: 1949.75,
  currency: 'CHF',
  debtor: { name: 'Pia-Maria Rutschmann-Schnyder', street: 'Grosse Marktgasse', buildingNumber: '28', postalCode: '9400', town: 'Rorschach', country: 'CH' },
  reference: '21 00000 00003 13947 14300 09017',
  message: 'Order dated 18.06.2020',
  billInformation: '//S1/10/10201409/11/200701/20/140.000-53/30/102673831/31/200615/32/7.7/33/7.7:139.40/40/0:30',
};

const SAMPLES: Record<CodeKind, string> = {
  qr: 'https://example.com/invoices/2026-0042?lang=de-CH',
  code128: 'SHIP-2026/0042',
  ean13: '4006381333931',
  upca: '036000291452',
  datamatrix: 'LOT 42 · Grüße',
  pdf417: 'PDF417 sample 0123456789',
  swissqr: swissQrBillPayload(SIX_EXAMPLE),
  epc: epcPayload({ name: 'Red Cross of Belgium', iban: 'BE72000000001616', bic: 'BPOTBEB1', amount: 1, purpose: 'CHAR', text: 'Urgency fund' }),
};

function errorOf(work: () => unknown): CodeError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(CodeError);
    return error as CodeError;
  }
  throw new Error('no error');
}

const draw = (kind: CodeKind, text: string, options?: DrawCodeInput['options']) => drawCode({ kind, text, options });

describe('drawCode', () => {
  test.each(codeKinds)('%s: one SVG of paths with width, height and viewBox, no script, text or reference', (kind) => {
    const svg = draw(kind, SAMPLES[kind]);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="[0-9.]+mm" height="[0-9.]+mm" viewBox="[-0-9. ]+"/);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg.match(/<svg/g)).toHaveLength(1);
    expect(svg).toContain('<path');
    expect(svg).not.toMatch(/<script|<text|<image|<foreignObject|href=|\bon[a-z]+=/i);
    // the only reference is the Swiss cross's clip path, inside the same drawing
    for (const url of svg.match(/url\(#[^)]+\)/g) ?? []) expect(svg).toContain(`id="${url.slice(5, -1)}"`);
  });

  test('a QR code at the default size has 0.5 mm modules and a 4-module quiet zone; size and quiet zone are honoured', () => {
    const [symbol] = bwipjs.raw('qrcode', SAMPLES.qr, 'eclevel=M') as Array<{ pixx: number }>;
    expect(draw('qr', SAMPLES.qr)).toContain(`width="${(symbol!.pixx + 8) * 0.5}mm"`);
    const sized = draw('qr', SAMPLES.qr, { size: '40mm', quietZone: 0, ecc: 'H' });
    const [high] = bwipjs.raw('qrcode', SAMPLES.qr, 'eclevel=H') as Array<{ pixx: number }>;
    expect(sized).toContain('width="40mm" height="40mm"');
    expect(sized).toContain(`viewBox="0 0 ${high!.pixx * 2} ${high!.pixx * 2}"`);
    expect(high!.pixx).toBeGreaterThan(symbol!.pixx);
  });

  test('PDF417: the drawing is the encoder\'s matrix, module for module (its columns and rows)', () => {
    const [symbol] = bwipjs.raw('pdf417', SAMPLES.pdf417, {}) as Array<{ pixx: number; pixy: number; pixs: number[] }>;
    const svg = draw('pdf417', SAMPLES.pdf417, { quietZone: 0 });
    expect(svg).toContain(`viewBox="0 0 ${symbol!.pixx} ${symbol!.pixy}"`);
    expect(codeModules({ kind: 'pdf417', text: SAMPLES.pdf417 })).toEqual({ columns: symbol!.pixx, rows: symbol!.pixy / 3, rowHeight: 3, modules: symbol!.pixs });
    expect(codeModules({ kind: 'qr', text: SAMPLES.qr }).rowHeight).toBe(1);
    expect(() => codeModules({ kind: 'ean13', text: SAMPLES.ean13 })).toThrow('kind: an EAN-13 is bars, not a matrix of modules');
  });

  test('the Swiss QR code is 46 mm with its cross, the same for the same payload; two payloads, two clip ids', () => {
    const svg = draw('swissqr', SAMPLES.swissqr);
    expect(svg).toContain('width="46mm" height="46mm"');
    expect(svg).toContain('<clipPath');
    expect(draw('swissqr', SAMPLES.swissqr)).toBe(svg);
    // a quiet zone of 4 modules around the 46 mm code
    const { columns } = codeModules({ kind: 'swissqr', text: SAMPLES.swissqr });
    expect(draw('swissqr', SAMPLES.swissqr, { quietZone: 4 })).toContain(`width="${Number(((46 * (columns + 8)) / columns).toFixed(4))}mm"`);
    const other = swissQrBillPayload({ ...SIX_EXAMPLE, amount: 10 });
    expect(draw('swissqr', other).match(/id="([^"]+)"/)![1]).not.toBe(svg.match(/id="([^"]+)"/)![1]);
  });

  test('linear codes: size sets the width, height the bars; EAN and UPC print their digits, Code 128 only when asked', () => {
    const svg = draw('code128', SAMPLES.code128, { size: '60mm', height: '12mm' });
    expect(svg).toMatch(/width="60mm" height="[0-9.]+mm"/);
    expect(draw('ean13', SAMPLES.ean13).length).toBeGreaterThan(draw('ean13', SAMPLES.ean13, { humanReadable: false }).length);
    expect(draw('code128', SAMPLES.code128, { humanReadable: true }).length).toBeGreaterThan(draw('code128', SAMPLES.code128).length);
    // twelve digits: the check digit is computed
    expect(draw('ean13', '400638133393')).toBe(draw('ean13', '4006381333931'));
  });
});

describe('the drawing cache of a thread', () => {
  test('the same code again is the same drawing, byte for byte, as drawn anew; each option is part of what was asked', () => {
    const input: DrawCodeInput = { kind: 'epc', text: SAMPLES.epc, options: { size: '30mm' } };
    const before = drawingCacheSize().drawings;
    // drawn anew, then kept
    const first = drawCode(input);
    const kept = drawingCacheSize().drawings;
    expect(kept).toBe(Math.min(before + 1, 300));
    expect(drawCode({ ...input, options: { size: '30mm' } })).toBe(first);
    expect(drawingCacheSize().drawings).toBe(kept);
    expect(drawCode({ kind: 'qr', text: SAMPLES.epc, options: { size: '30mm' } })).toContain('aria-label="QR code"');
    expect(drawCode({ kind: 'epc', text: SAMPLES.epc, options: { size: '31mm' } })).toContain('width="31mm"');
  });

  test('refused input is refused again: a drawing kept for a valid request never answers another of other types', () => {
    expect(drawCode({ kind: 'qr', text: 'kept', options: { quietZone: 4 } })).toContain('<path');
    expect(errorOf(() => drawCode({ kind: 'qr', text: 'kept', options: { quietZone: '4' as unknown as number } })).message).toBe('quietZone: must be a whole number of modules, 0 to 40');
    expect(drawCode({ kind: 'qr', text: 'kept' })).toContain('<path');
    expect(errorOf(() => drawCode({ kind: 'qr', text: 'kept', options: { ecc: null as unknown as 'M' } })).message).toBe('ecc: must be L, M, Q or H');
  });

  test('it keeps at most 300 drawings and 4 MiB', () => {
    for (let index = 0; index < 320; index += 1) drawCode({ kind: 'qr', text: `code ${index}` });
    expect(drawingCacheSize().drawings).toBe(300);
    // large codes push the small ones out: the characters stay within the bound
    for (let index = 0; index < 40; index += 1) drawCode({ kind: 'qr', text: `${index} ${'x'.repeat(2900)}`, options: { ecc: 'L' } });
    expect(drawingCacheSize().chars).toBeGreaterThan(3 * 1024 * 1024);
    expect(drawingCacheSize().chars).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(drawingCacheSize().drawings).toBeLessThan(300);
  });
});

describe('invalid input is a CodeError naming the field and the rule', () => {
  test.each([
    ['ean13', '4006381333932', 'check_digit', 'value: wrong check digit 2: the EAN-13 check digit of these digits is 1'],
    ['upca', '036000291453', 'check_digit', 'value: wrong check digit 3: the UPC-A check digit of these digits is 2'],
    ['ean13', '40063813339', 'invalid_format', 'value: an EAN-13 is 12 digits, or 13 with the check digit'],
    ['upca', '03600029145x', 'invalid_format', 'value: a UPC-A is 11 digits, or 12 with the check digit'],
    ['code128', 'Größe', 'invalid_character', 'value: character U+00F6 at position 3 cannot be encoded in Code 128 (printable ASCII only)'],
    ['code128', 'x'.repeat(81), 'too_long', 'value: is 81 bytes, a Code 128 holds at most 80'],
    ['qr', '', 'missing', 'value: a QR code needs a value'],
    ['datamatrix', 'x'.repeat(1557), 'too_long', 'value: is 1557 bytes, a Data Matrix holds at most 1556'],
    ['pdf417', 'x'.repeat(1851), 'too_long', 'value: is 1851 bytes, a PDF417 holds at most 1850'],
  ] as const)('%s %#', (kind, text, reason, message) => {
    const error = errorOf(() => draw(kind, text));
    expect(error.code).toBe('code_invalid_input');
    expect(error.field).toBe('value');
    expect(error.reason).toBe(reason);
    expect(error.message).toBe(message);
  });

  test('a QR value too long at the level asked for: the cap, then the encoder\'s own limit', () => {
    expect(errorOf(() => draw('qr', 'x'.repeat(1274), { ecc: 'H' })).message).toBe('value: is 1274 bytes, a QR code at error correction H holds at most 1273');
    expect(draw('qr', 'x'.repeat(1274), { ecc: 'L' })).toContain('<path');
    // within the byte cap, but not within what the symbol holds in its mode
    const error = errorOf(() => draw('pdf417', '\u00e9'.repeat(900)));
    expect(error.reason).toBe('too_long');
    expect(error.message).toBe('value: too long for a PDF417');
  });

  test.each([
    [{ ecc: 'X' }, 'qr', 'ecc: must be L, M, Q or H'],
    [{ ecc: 'H' }, 'epc', 'ecc: an EPC QR code is always at error correction M'],
    [{ ecc: 'M' }, 'datamatrix', 'ecc: only a QR code has an error correction level'],
    [{ quietZone: 41 }, 'qr', 'quietZone: must be a whole number of modules, 0 to 40'],
    [{ size: '40' }, 'qr', 'size: must be a length above 0 with unit px, mm, cm or in (40mm)'],
    [{ size: '0mm' }, 'qr', 'size: must be a length above 0 with unit px, mm, cm or in (40mm)'],
    [{ size: '41in' }, 'qr', 'size: must be at most 40 inches'],
    [{ height: '10mm' }, 'qr', 'height: a QR code takes its height from its size'],
  ] as const)('option %o of %s', (options, kind, message) => {
    const error = errorOf(() => draw(kind, SAMPLES[kind], options as DrawCodeInput['options']));
    expect(error.reason).toMatch(/invalid_option|out_of_range/);
    expect(error.message).toBe(message);
  });

  test('an unknown kind', () => {
    expect(errorOf(() => drawCode({ kind: 'aztec' as CodeKind, text: 'x' })).message).toBe('kind: must be one of qr, code128, ean13, upca, datamatrix, pdf417, swissqr, epc');
  });
});

describe('EPC QR payload (EPC069-12, version 002)', () => {
  test('the Belgian Red Cross example of the guidelines, line by line', () => {
    expect(SAMPLES.epc.split('\n')).toEqual(['BCD', '002', '1', 'SCT', 'BPOTBEB1', 'Red Cross of Belgium', 'BE72000000001616', 'EUR1.00', 'CHAR', '', 'Urgency fund']);
  });

  test('without BIC, amount and text: trailing empty lines are left out; a reference has its own line', () => {
    expect(epcPayload({ name: 'Franz Mustermänn', iban: 'de71 1102 2033 0123 4567 89', reference: 'RF18 5390 0754 7034' }).split('\n')).toEqual([
      'BCD', '002', '1', 'SCT', '', 'Franz Mustermänn', 'DE71110220330123456789', '', '', 'RF18539007547034',
    ]);
  });

  test.each([
    [{ iban: 'BE72000000001617' }, 'iban', 'iban: the IBAN check digits do not match (a mistyped character?)'],
    [{ iban: 'BE72' }, 'iban', 'iban: is not an IBAN (two letters, two check digits, 11 to 30 letters or digits)'],
    [{ amount: 0 }, 'amount', 'amount: must be within 0.01 and 999999999.99'],
    [{ amount: 1_000_000_000 }, 'amount', 'amount: must be within 0.01 and 999999999.99'],
    [{ amount: 1.005 }, 'amount', 'amount: has more than two decimals'],
    [{ name: 'x'.repeat(71) }, 'name', 'name: is 71 characters, at most 70 are allowed'],
    [{ name: '' }, 'name', 'name: is required'],
    [{ bic: 'BPOT' }, 'bic', 'bic: is not a BIC (8 or 11 letters and digits)'],
    [{ reference: 'RF19539007547034', text: undefined }, 'reference', 'reference: the creditor reference check digits do not match'],
    [{ reference: 'INV 42' }, 'text', 'text: cannot be given with a reference: the transfer carries one or the other'],
    [{ text: 'x'.repeat(141) }, 'text', 'text: is 141 characters, at most 140 are allowed'],
    [{ currency: 'USD' }, 'currency', 'currency: must be EUR (SEPA credit transfers are in euros)'],
  ])('%o', (change, field, message) => {
    const error = errorOf(() => epcPayload({ name: 'Red Cross of Belgium', iban: 'BE72000000001616', text: 'Urgency fund', ...(change as object) }));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });

  test('a payload over 331 bytes', () => {
    const error = errorOf(() => epcPayload({ name: 'é'.repeat(70), iban: 'BE72000000001616', text: 'é'.repeat(140), information: 'é'.repeat(70) }));
    expect(error.message).toMatch(/^value: the payload is \d+ bytes, at most 331 are allowed$/);
  });

  test('a payload written by hand is read field by field', () => {
    expect(() => checkEpcPayload(SAMPLES.epc)).not.toThrow();
    expect(() => checkEpcPayload('BCD\n001\n1\nSCT\nBPOTBEB1\nRed Cross of Belgium\nBE72000000001616\nEUR1\nCHAR\n\nUrgency fund\n')).not.toThrow();
    expect(errorOf(() => checkEpcPayload(SAMPLES.epc.replace('BE72', 'BE73'))).field).toBe('iban');
    expect(errorOf(() => checkEpcPayload(SAMPLES.epc.replace('EUR1.00', '1.00'))).message).toBe('amount: must be EUR followed by the amount (EUR12.30)');
    expect(errorOf(() => checkEpcPayload('BCD\n001\n1\nSCT\n\nRed Cross\nBE72000000001616')).message).toBe('bic: is required in version 001');
    expect(errorOf(() => draw('epc', 'hello')).message).toBe('value: an EPC payload starts with the line BCD');
  });
});

describe('Swiss QR-bill payload (SPC 0200)', () => {
  test('the example of the implementation guidelines, element by element', () => {
    expect(SAMPLES.swissqr.split('\n')).toEqual([
      'SPC', '0200', '1', 'CH4431999123000889012',
      'S', 'Robert Schneider AG', 'Rue du Lac', '1268', '2501', 'Biel', 'CH',
      '', '', '', '', '', '', '',
      '1949.75', 'CHF',
      'S', 'Pia-Maria Rutschmann-Schnyder', 'Grosse Marktgasse', '28', '9400', 'Rorschach', 'CH',
      'QRR', '210000000003139471430009017', 'Order dated 18.06.2020', 'EPD',
      '//S1/10/10201409/11/200701/20/140.000-53/30/102673831/31/200615/32/7.7/33/7.7:139.40/40/0:30',
    ]);
    expect(SAMPLES.swissqr.endsWith('\n')).toBe(false);
  });

  test('an IBAN with a creditor reference (SCOR) or none (NON), no debtor, no amount: it ends at EPD', () => {
    const lines = swissQrBillPayload({ account: 'CH93 0076 2011 6238 5295 7', creditor: SIX_EXAMPLE.creditor, currency: 'EUR', reference: 'RF18 5390 0754 7034' }).split('\n');
    expect(lines.length).toBe(31);
    expect(lines.slice(18, 29)).toEqual(['', 'EUR', '', '', '', '', '', '', '', 'SCOR', 'RF18539007547034']);
    expect(swissQrBillPayload({ account: 'CH9300762011623852957', creditor: SIX_EXAMPLE.creditor, currency: 'CHF' }).split('\n')[27]).toBe('NON');
  });

  test.each([
    [{ reference: undefined }, 'reference', 'reference: a QR-IBAN needs a QR reference (27 digits)'],
    [{ reference: '210000000003139471430009018' }, 'reference', 'reference: the QR reference check digit (modulo 10, recursive) does not match'],
    [{ account: 'DE71110220330123456789' }, 'account', 'account: must be an IBAN of CH or LI'],
    [{ account: 'CH4431999123000889013' }, 'account', 'account: the IBAN check digits do not match (a mistyped character?)'],
    [{ account: 'CH9300762011623852957', reference: '210000000003139471430009017' }, 'reference', 'reference: a QR reference needs a QR-IBAN as the account'],
    [{ amount: 0 }, 'amount', 'amount: must be within 0.01 and 999999999.99'],
    [{ currency: 'USD' }, 'currency', 'currency: must be CHF or EUR'],
    [{ creditor: { ...SIX_EXAMPLE.creditor, town: 'x'.repeat(36) } }, 'creditor.town', 'creditor.town: is 36 characters, at most 35 are allowed'],
    [{ creditor: { ...SIX_EXAMPLE.creditor, name: 'Роберт' } }, 'creditor.name', 'creditor.name: character U+0420 at position 1 is not allowed'],
    [{ debtor: { ...SIX_EXAMPLE.debtor!, country: 'Switzerland' } }, 'debtor.country', 'debtor.country: must be a two-letter ISO country code'],
    [{ message: 'x'.repeat(60) }, 'billInformation', 'billInformation: message and bill information are at most 140 characters together'],
  ])('%o', (change, field, message) => {
    const error = errorOf(() => swissQrBillPayload({ ...SIX_EXAMPLE, ...(change as object) }));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });

  test('a payload written by hand is read element by element', () => {
    expect(() => checkSwissQrBillPayload(SAMPLES.swissqr)).not.toThrow();
    expect(() => checkSwissQrBillPayload(SAMPLES.swissqr.replaceAll('\n', '\r\n'))).not.toThrow();
    expect(errorOf(() => checkSwissQrBillPayload(SAMPLES.swissqr.replace('Biel\n', ''))).message).toBe('value: the 31st line must be the trailer EPD (a line missing or one too many before it?)');
    expect(errorOf(() => checkSwissQrBillPayload(SAMPLES.swissqr.replace('\nQRR\n', '\nSCOR\n'))).message).toBe('referenceType: must be QRR for this account and reference');
    expect(errorOf(() => draw('swissqr', SAMPLES.swissqr.replace('1949.75', '1949.755'))).field).toBe('amount');
  });
});
