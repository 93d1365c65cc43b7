// PDF geometry and print options of the render request rules, checked the way a person would: pdfinfo for the
// page size and count, pdftotext for text and its position, pdftoppm for what is painted.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError, type PdfOptions } from '@svc/contracts';
import { Renderer } from '../src/index.ts';
import { paintedAt } from './support/pixels.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const viewport = { width: 1280, height: 720, device_scale_factor: 1 };
const DOCUMENT = '<body style="margin:0"><p style="margin:0;font:20px sans-serif">Hello world</p></body>';

const render = (pdf: PdfOptions, html = DOCUMENT) => renderer.renderPdf({ html, pdf, viewport, javascript: 'disabled' });

/** pdfinfo's fields, e.g. Pages and "Page size" ("595.276 x 841.89 pts (A4)"). */
function pdfInfo(bytes: Buffer): Record<string, string> {
  const text = execFileSync('pdfinfo', ['-'], { input: bytes }).toString();
  return Object.fromEntries(text.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
}

function pageSizePt(bytes: Buffer): [number, number] {
  const match = /^([\d.]+) x ([\d.]+) pts/.exec(pdfInfo(bytes)['Page size'] ?? '');
  return [Number(match?.[1]), Number(match?.[2])];
}

const text = (bytes: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString();

/** Left edge (pt) of the first word pdftotext finds. */
function firstWordBox(bytes: Buffer): { xMin: number; yMin: number; xMax: number } {
  const html = execFileSync('pdftotext', ['-bbox', '-', '-'], { input: bytes }).toString();
  const match = /<word xMin="(-?[\d.]+)" yMin="(-?[\d.]+)" xMax="(-?[\d.]+)"/.exec(html);
  return { xMin: Number(match?.[1]), yMin: Number(match?.[2]), xMax: Number(match?.[3]) };
}


const mm = (value: number) => (value / 25.4) * 72;

test('defaults: one A4 page, text present, zero margins', async () => {
  const output = await render({});
  expect(output.mediaType).toBe('application/pdf');
  expect(output.pageCount).toBe(1);
  expect(pdfInfo(output.bytes).Pages).toBe('1');
  const [width, height] = pageSizePt(output.bytes);
  expect(width).toBeCloseTo(mm(210), 1);
  expect(height).toBeCloseTo(mm(297), 1);
  expect(text(output.bytes)).toContain('Hello world');
  expect(firstWordBox(output.bytes).xMin).toBeLessThan(5);
});

describe('paper formats', () => {
  const formats: [NonNullable<PdfOptions['format']>, number, number][] = [
    ['A0', mm(841), mm(1189)],
    ['A1', mm(594), mm(841)],
    ['A2', mm(420), mm(594)],
    ['A3', mm(297), mm(420)],
    ['A4', mm(210), mm(297)],
    ['A5', mm(148), mm(210)],
    ['A6', mm(105), mm(148)],
    ['Letter', 612, 792],
    ['Legal', 612, 1008],
    ['Ledger', 1224, 792],
    ['Tabloid', 792, 1224],
  ];
  test.concurrent.for(formats)('%s', async ([format, width, height]) => {
    const [actualWidth, actualHeight] = pageSizePt((await render({ format })).bytes);
    expect(actualWidth).toBeCloseTo(width, 1);
    expect(actualHeight).toBeCloseTo(height, 1);
  });
});

describe('width and height in every unit, up to 4 decimals', () => {
  const sizes: [string, string, number, number][] = [
    ['21.0001cm', '100mm', mm(210.001), mm(100)],
    ['8.5in', '5.5in', 612, 396],
    ['794px', '2.0001in', 595.5, 2.0001 * 72],
  ];
  test.concurrent.for(sizes)('%s x %s', async ([width, height, expectedWidth, expectedHeight]) => {
    const [actualWidth, actualHeight] = pageSizePt((await render({ width, height })).bytes);
    expect(actualWidth).toBeCloseTo(expectedWidth, 1);
    expect(actualHeight).toBeCloseTo(expectedHeight, 1);
  });
});

test('landscape swaps the sides', async () => {
  const [width, height] = pageSizePt((await render({ format: 'A4', landscape: true })).bytes);
  expect(width).toBeCloseTo(mm(297), 1);
  expect(height).toBeCloseTo(mm(210), 1);
  const [customWidth, customHeight] = pageSizePt((await render({ width: '100mm', height: '200mm', landscape: true })).bytes);
  expect([customWidth, customHeight].map((value) => Math.round(value))).toEqual([Math.round(mm(200)), Math.round(mm(100))]);
});

test('margins move the content', async () => {
  const output = await render({ margins: { top: '1in', left: '30mm', right: '5mm', bottom: '0' } }).catch((error: unknown) => error);
  // a bare 0 has no unit, which the length rule does not allow
  expect((output as RenderError).code).toBe('invalid_length');
  const moved = firstWordBox((await render({ margins: { top: '1in', left: '30mm', right: '5mm', bottom: '0mm' } })).bytes);
  expect(moved.xMin).toBeGreaterThan(mm(30) - 1);
  expect(moved.xMin).toBeLessThan(mm(30) + 4);
  expect(moved.yMin).toBeGreaterThan(72 - 1);
});

test('print_background: painted by default, white when false', async () => {
  const red = '<body style="margin:0;background:#ff0000"><p>x</p></body>';
  expect(await paintedAt((await render({}, red)).bytes, 0.5, 0.5)).toEqual([255, 0, 0]);
  expect(await paintedAt((await render({ print_background: false }, red)).bytes, 0.5, 0.5)).toEqual([255, 255, 255]);
});

test('scale enlarges the content', async () => {
  const normal = firstWordBox((await render({})).bytes);
  const doubled = firstWordBox((await render({ scale: 2 })).bytes);
  expect((doubled.xMax - doubled.xMin) / (normal.xMax - normal.xMin)).toBeCloseTo(2, 1);
  const error = await render({ scale: 3 }).catch((caught: unknown) => caught);
  expect((error as RenderError).code).toBe('invalid_scale');
});

test('header and footer templates, with page numbers, on every page', async () => {
  const pages = '<p style="break-after:page">one</p><p style="break-after:page">two</p><p>three</p>';
  const output = await render(
    {
      display_header_footer: true,
      header_template: '<div style="font-size:10px;width:100%;text-align:center">Quarterly report</div>',
      footer_template: '<div style="font-size:10px;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
      margins: { top: '20mm', bottom: '20mm' },
    },
    pages,
  );
  expect(output.pageCount).toBe(3);
  const content = text(output.bytes);
  expect(content.match(/Quarterly report/g)).toHaveLength(3);
  for (const page of [1, 2, 3]) expect(content).toContain(`Page ${page} of 3`);
});

test('display_header_footer without templates prints empty bands, not the default date and URL', async () => {
  const output = await render({ display_header_footer: true, margins: { top: '20mm', bottom: '20mm' } });
  expect(text(output.bytes).trim()).toBe('Hello world');
});

test('impossible geometry is refused as invalid_input', async () => {
  const cases: PdfOptions[] = [
    { width: '100mm' },
    { format: 'A4', width: '100mm', height: '100mm' },
    { width: '10furlongs', height: '1in' },
    { format: 'A4', margins: { left: '150mm', right: '150mm' } },
  ];
  for (const pdf of cases) {
    const error = await render(pdf).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as RenderError).category).toBe('invalid_input');
  }
});
