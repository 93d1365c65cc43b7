// <svc-code> elements drawn by the renderer, read back as a scanner would, from a PNG render and
// from a PDF page rasterised at 150 dpi; what the reader reads must equal the element's value.
// zbarimg reads QR, EPC, Code 128, EAN-13 and UPC-A, dmtxread Data Matrix. zbar cannot read a
// Swiss QR code: its cross covers the centre alignment pattern, which zbar's grid needs and phone
// readers do without; ZXingReader (zxing-cpp) reads it, as such readers do. PDF417, which neither
// zbar nor dmtxread reads, is checked another way: its modules are sampled from the rendered
// pixels at each module's centre and compared, module for module, with the matrix bwip-js encodes
// for the value (codeModules), so a drawing that dropped, moved or distorted a row or column fails;
// ZXingReader reads it back as well.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError } from '@svc/contracts';
import { codeModules, epcPayload, swissQrBillPayload, type CodeKind } from '@svc/codes';
import { Renderer } from '../src/index.ts';

let renderer: Renderer;
let scratch: string;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
  scratch = mkdtempSync(join(tmpdir(), 'svc-codes-test-'));
});

afterAll(async () => {
  await renderer?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const swiss = swissQrBillPayload({
  account: 'CH4431999123000889012',
  creditor: { name: 'Robert Schneider AG', street: 'Rue du Lac', buildingNumber: '1268', postalCode: '2501', town: 'Biel', country: 'CH' },
  amount: 1949.75,
  currency: 'CHF',
  debtor: { name: 'Pia-Maria Rutschmann-Schnyder', street: 'Grosse Marktgasse', buildingNumber: '28', postalCode: '9400', town: 'Rorschach', country: 'CH' },
  reference: '210000000003139471430009017',
  message: 'Order dated 18.06.2020',
});
const epc = epcPayload({ name: 'Franz Mustermänn', iban: 'DE71110220330123456789', bic: 'BHBLDEHHXXX', amount: 12.3, reference: 'RF18539007547034' });

/** zbarimg for QR codes (their bytes as they are: zbar would guess a character set otherwise) and for bars, dmtxread, ZXingReader. */
type Reader = 'zbar-qr' | 'zbar' | 'dmtx' | 'zxing-qr' | 'zxing-pdf417';

/** Per kind: the value and the size of the PNG's drawing in CSS pixels (about 3 px a module). */
const CASES: Array<{ kind: Exclude<CodeKind, 'pdf417'>; value: string; pngSize: string; reader: Reader }> = [
  { kind: 'qr', value: 'https://example.com/i/2026-0042?lang=de-CH&name=Grüße', pngSize: '260px', reader: 'zbar-qr' },
  { kind: 'code128', value: 'SHIP-2026/0042 x', pngSize: '560px', reader: 'zbar' },
  { kind: 'ean13', value: '4006381333931', pngSize: '380px', reader: 'zbar' },
  { kind: 'upca', value: '036000291452', pngSize: '380px', reader: 'zbar' },
  { kind: 'datamatrix', value: 'LOT 42 · Größe M', pngSize: '200px', reader: 'dmtx' },
  { kind: 'epc', value: epc, pngSize: '300px', reader: 'zbar-qr' },
  { kind: 'swissqr', value: swiss, pngSize: '360px', reader: 'zxing-qr' },
];

/** An attribute value as HTML writes it: line breaks of the payment payloads as character references. */
const attribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('\n', '&#10;');

const element = (kind: string, value: string, extra = '') => `<svc-code kind="${kind}" value="${attribute(value)}"${extra}></svc-code>`;

const page = (body: string) => `<!doctype html><html><body style="margin:0;background:#fff"><div style="padding:40px">${body}</div></body></html>`;

let files = 0;
function decode(png: Buffer, reader: Reader): string {
  const file = join(scratch, `symbol-${(files += 1)}.png`);
  writeFileSync(file, png);
  // -bytes: the symbol's bytes and nothing else
  if (reader === 'zxing-qr' || reader === 'zxing-pdf417') return execFileSync('ZXingReader', ['-bytes', '-format', reader === 'zxing-qr' ? 'QRCode' : 'PDF417', file]).toString('utf8');
  if (reader === 'dmtx') return execFileSync('dmtxread', ['--milliseconds=20000', file], { stdio: ['ignore', 'pipe', 'ignore'] }).toString('utf8');
  // UPC-A is read as itself, not as an EAN-13 with a leading 0
  const result = spawnSync('zbarimg', ['--raw', '-q', reader === 'zbar-qr' ? '-Sbinary' : '-Supca.enable', file]);
  expect(result.status, `${file}: ${result.stderr.toString()}`).toBe(0);
  // zbarimg ends a symbol's text with a line break of its own, binary data without one
  const read = result.stdout.toString('utf8');
  return reader === 'zbar-qr' ? read : read.replace(/\n$/, '');
}

function pdfPages(pdf: Buffer): Buffer[] {
  const directory = mkdtempSync(join(scratch, 'pages-'));
  writeFileSync(join(directory, 'file.pdf'), pdf);
  execFileSync('pdftoppm', ['-r', '150', '-png', join(directory, 'file.pdf'), join(directory, 'page')]);
  return readdirSync(directory)
    .filter((name) => name.endsWith('.png'))
    .sort()
    .map((name) => execFileSync('cat', [join(directory, name)]));
}

const pdf = (html: string) => renderer.renderPdf({ html, pdf: { format: 'A4' }, viewport: { width: 1280, height: 720, device_scale_factor: 1 }, javascript: 'disabled' });
const png = (html: string, javascript: 'enabled' | 'disabled' = 'disabled') =>
  renderer.renderImage({ html, image: { format: 'png', width: 800, height: 700 }, javascript });

describe('each symbol reads back as its value', () => {
  test.each(CASES)('$kind from a PNG render', async ({ kind, value, pngSize, reader }) => {
    const output = await png(page(element(kind, value, ` size="${pngSize}"`)));
    expect(decode(output.bytes, reader)).toBe(value);
  });

  test('from a PDF page at 150 dpi, each kind at its default size', async () => {
    const html = page(CASES.map(({ kind, value }) => `<div style="break-after:page">${element(kind, value)}</div>`).join(''));
    const output = await pdf(html);
    const pages = pdfPages(output.bytes);
    expect(pages).toHaveLength(CASES.length);
    for (const [index, { kind, value, reader }] of CASES.entries()) expect(decode(pages[index]!, reader), kind).toBe(value);
  });

  test.each(['L', 'M', 'Q', 'H'])('a QR code at error correction %s with a value of multi-byte UTF-8 characters', async (ecc) => {
    const value = 'Zürich 東京 😀';
    const output = await png(page(element('qr', value, ` ecc="${ecc}" size="200px"`)));
    expect(decode(output.bytes, 'zbar-qr')).toBe(value);
  });

  test('with script enabled too, and the document\'s script still runs', async () => {
    const output = await png(page(`${element('qr', 'scripted')}<script>document.body.style.background = '#fff';</script>`), 'enabled');
    expect(decode(output.bytes, 'zbar-qr')).toBe('scripted');
  });
});

describe('PDF417: the rendered modules are the encoder\'s matrix', () => {
  const value = 'PDF417 · invoice 2026-0042 · 1949.75 CHF';
  const matrix = codeModules({ kind: 'pdf417', text: value });
  const symbol = { pixx: matrix.columns, pixy: matrix.rows, pixs: matrix.modules };

  /** The module grid read from an image: the dark bounds are the symbol (start and stop patterns begin and end with a bar), each module sampled at its centre. */
  async function modulesOf(image: Buffer): Promise<string> {
    const { data, info } = await sharp(image).removeAlpha().greyscale().raw().toBuffer({ resolveWithObject: true });
    const dark = (x: number, y: number) => data[y * info.width + x]! < 128;
    let [left, top, right, bottom] = [info.width, info.height, -1, -1];
    for (let y = 0; y < info.height; y += 1) {
      for (let x = 0; x < info.width; x += 1) {
        if (!dark(x, y)) continue;
        [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
      }
    }
    const width = (right - left + 1) / symbol.pixx;
    const height = (bottom - top + 1) / symbol.pixy;
    expect(Math.abs(height - width * matrix.rowHeight)).toBeLessThan(width * 0.1);
    const modules: number[] = [];
    for (let row = 0; row < symbol.pixy; row += 1) {
      for (let column = 0; column < symbol.pixx; column += 1) modules.push(dark(Math.floor(left + (column + 0.5) * width), Math.floor(top + (row + 0.5) * height)) ? 1 : 0);
    }
    return rowsOf(modules);
  }

  /** One line of 0 and 1 a row: a difference shows where it is. */
  const rowsOf = (modules: number[]) => Array.from({ length: symbol.pixy }, (_, row) => modules.slice(row * symbol.pixx, (row + 1) * symbol.pixx).join('')).join('\n');

  test('in a PNG render', async () => {
    const output = await png(page(element('pdf417', value, ` quiet-zone="2" size="${(symbol.pixx + 4) * 3}px"`)));
    expect(await modulesOf(output.bytes)).toBe(rowsOf(symbol.pixs));
    expect(decode(output.bytes, 'zxing-pdf417')).toBe(value);
  });

  test('in a PDF page at 150 dpi', async () => {
    const output = await pdf(page(element('pdf417', value, ` size="${(symbol.pixx + 4) * 0.6}mm"`)));
    const [first] = pdfPages(output.bytes);
    expect(await modulesOf(first!)).toBe(rowsOf(symbol.pixs));
    expect(decode(first!, 'zxing-pdf417')).toBe(value);
  });
});

describe('an element that cannot be drawn fails the render; its report names the element, the attribute and the rule', () => {
  async function failure(html: string): Promise<RenderError> {
    const error = await png(html).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RenderError);
    expect((error as RenderError).category).toBe('invalid_input');
    expect((error as RenderError).code).toBe('invalid_code');
    return error as RenderError;
  }

  /** the element's path in page(): html, body, the padding div */
  const first = 'body > div:nth-child(1) > svc-code:nth-child(1)';
  test.each([
    [element('ean13', '4006381333932', ' id="price"'), '#price', 'value', 'wrong check digit 2: the EAN-13 check digit of these digits is 1'],
    [`<p>${element('qr', 'ok')}${element('code128', 'Größe')}</p>`, 'body > div:nth-child(1) > p:nth-child(1) > svc-code:nth-child(2)', 'value', 'character U+00F6 at position 3 cannot be encoded in Code 128 (printable ASCII only)'],
    [element('qr', 'x'.repeat(1300), ' ecc="H"'), first, 'value', 'is 1300 bytes, a QR code at error correction H holds at most 1273'],
    [element('aztec', 'x'), first, 'kind', 'must be one of qr, code128, ean13, upca, datamatrix, pdf417, swissqr, epc'],
    [element('qr', 'x', ' size="big"'), first, 'size', 'must be a length above 0 with unit px, mm, cm or in (40mm)'],
    [element('qr', 'x', ' quiet-zone="-1"'), first, 'quiet-zone', 'must be a whole number of modules, 0 to 40'],
    [element('epc', epc.replace('DE71', 'DE72')), first, 'value (iban)', 'the IBAN check digits do not match (a mistyped character?)'],
    [element('qr', 'x').repeat(101), null, null, 'the document has 101 <svc-code> elements, at most 100 are drawn'],
    [element('pdf417', 'x'.repeat(1500)).repeat(11), null, null, 'the <svc-code> values are 16500 bytes together, at most 16384'],
  ])('%#', async (body, selector, attribute, message) => {
    const error = await failure(page(body));
    expect(error.findings?.problems).toContainEqual({ type: 'invalid_code', selector, attribute, message });
    expect(error.message).toBe(selector ? `<svc-code> ${selector}: ${attribute}: ${message}` : message);
  });
});
