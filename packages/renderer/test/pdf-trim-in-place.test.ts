// The in-place page-box trim must give the same boxes as the pdf-lib path, keep the file
// readable (every offset valid), and refuse layouts it does not understand. Chromium's own
// output goes through it in pdf-options.test.ts, checked there with pdfinfo.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFName } from 'pdf-lib';
import puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHROMIUM_PATH, headlessMode } from '../src/index.ts';
import { finishDocument } from '../src/pdf/metadata.ts';
import { trimPageBoxesInPlace } from '../src/pdf/trim-in-place.ts';
import { objectText, readXrefTable } from '../src/pdf/xref-table.ts';

const A4 = { width: 595.2756, height: 841.8898 };
/** the rounded box Chromium prints for A4 */
const CHROMIUM_A4: [number, number] = [595.91998, 841.91998];

async function chromiumLike(pages: number, options: { useObjectStreams: boolean } = { useObjectStreams: false }): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  for (let index = 0; index < pages; index++) document.addPage(CHROMIUM_A4).drawText(`page ${index + 1}`, { x: 40, y: 700 });
  return Buffer.from(await document.save(options));
}

async function boxes(bytes: Uint8Array): Promise<number[][]> {
  const document = await PDFDocument.load(bytes);
  return document.getPages().map((page) => {
    const box = page.getMediaBox();
    return [box.x, box.y, box.width, box.height].map((value) => Number(value.toFixed(3)));
  });
}

describe('trimming page boxes in place', () => {
  it('gives the boxes the pdf-lib path gives, without changing the file length', async () => {
    const original = await chromiumLike(3);
    const viaPdfLib = await finishDocument(new Uint8Array(original), A4, {});
    const inPlace = Buffer.from(original);
    expect(trimPageBoxesInPlace(inPlace, A4)).toEqual({ pageCount: 3 });
    expect(inPlace.length).toBe(original.length);
    expect(await boxes(inPlace)).toEqual(await boxes(viaPdfLib.bytes));
    expect((await boxes(inPlace))[0]).toEqual([0, 0.03, 595.276, 841.89]);
  });

  it('leaves a file that a strict reader opens without repairing it', async () => {
    const inPlace = await chromiumLike(2);
    trimPageBoxesInPlace(inPlace, A4);
    // qpdf --check fails on any cross-reference offset that no longer points at its object
    const file = join(mkdtempSync(join(tmpdir(), 'svc-trim-')), 'trimmed.pdf');
    writeFileSync(file, inPlace);
    const report = execFileSync('qpdf', ['--check', file]).toString();
    expect(report).toContain('No syntax or stream encoding errors found');
    expect(report).not.toMatch(/reconstruct|WARNING/i);
  });

  it('keeps a box that is not a rounding of the requested size', async () => {
    const letter = await chromiumLike(1);
    const before = await boxes(letter);
    expect(trimPageBoxesInPlace(letter, { width: 612, height: 792 })).toEqual({ pageCount: 1 });
    expect(await boxes(letter)).toEqual(before);
  });

  it('reads /Page and /Title in a stream body as content, not as a page or a title', async () => {
    const document = await PDFDocument.create({ updateMetadata: false });
    for (let index = 0; index < 2; index++) {
      // an uncompressed content stream whose bytes spell what a page and an Info dictionary hold
      const contents = document.context.stream(`% /Type /Page /Title (about:blank) ${index}\n`);
      document.addPage(CHROMIUM_A4).node.set(PDFName.of('Contents'), document.context.register(contents));
    }
    const original = Buffer.from(await document.save({ useObjectStreams: false }));
    expect(original.includes('/Type /Page /Title (about:blank)')).toBe(true);
    const inPlace = Buffer.from(original);
    expect(trimPageBoxesInPlace(inPlace, A4)).toEqual({ pageCount: 2 });
    expect(await boxes(inPlace)).toEqual(await boxes((await finishDocument(new Uint8Array(original), A4, {})).bytes));
  });

  it('refuses a layout it does not know (object streams), leaving the bytes untouched', async () => {
    const packed = await chromiumLike(2, { useObjectStreams: true });
    const copy = Buffer.from(packed);
    expect(trimPageBoxesInPlace(copy, A4)).toBeNull();
    expect(copy.equals(packed)).toBe(true);
  });

  it("trims Chromium's own tagged output of many pages in place, with the page count pdfinfo reads", async () => {
    const executablePath = process.env.SVC_CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
    const browser = await puppeteer.launch({ executablePath, headless: headlessMode(executablePath), args: ['--no-sandbox'] });
    let printed: Buffer;
    try {
      const page = await browser.newPage();
      const rows = Array.from({ length: 300 }, (_, index) => `<tr><td>${index}</td><td>row ${index}</td></tr>`).join('');
      await page.setContent(`<h1>Ledger</h1><table>${rows}</table>`);
      printed = Buffer.from(await page.pdf({ format: 'A4', tagged: true }));
    } finally {
      await browser.close();
    }
    const file = join(mkdtempSync(join(tmpdir(), 'svc-trim-')), 'chromium.pdf');
    const pagesOf = () => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file]).toString())?.[1]);
    writeFileSync(file, printed);
    const pages = pagesOf();
    expect(pages).toBeGreaterThan(3);
    expect(trimPageBoxesInPlace(printed, A4)).toEqual({ pageCount: pages });
    writeFileSync(file, printed);
    expect(pagesOf()).toBe(pages);
    expect((await boxes(printed))[0]).toEqual([0, 0.03, 595.276, 841.89]);
    expect(execFileSync('qpdf', ['--check', file]).toString()).toContain('No syntax or stream encoding errors found');
  });
});

describe('reading the cross-reference table', () => {
  const objects = ['1 0 obj\n<< /Type /Catalog >>\nendobj\n', '5 0 obj\n(a string with endobj in it)\nendobj\n'];
  const file = (table: (offsets: number[]) => string) => {
    const head = '%PDF-1.4\n';
    const offsets = objects.map((_, index) => head.length + objects.slice(0, index).join('').length);
    const body = head + objects.join('');
    return Buffer.from(`${body}xref\n${table(offsets)}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${body.length}\n%%EOF\n`, 'latin1');
  };
  const entry = (offset: number, kind = 'n') => `${String(offset).padStart(10, '0')} 00000 ${kind} \n`;

  it('reads every subsection, and an object to where the next one begins', () => {
    const pdf = file(([catalog, string]) => `0 2\n${entry(0, 'f')}${entry(catalog!)}5 1\n${entry(string!)}`);
    const table = readXrefTable(pdf);
    expect(table?.trailer).toMatch(/^trailer/);
    expect(objectText(pdf, table!, 1)).toBe(objects[0]);
    expect(objectText(pdf, table!, 5)).toBe(objects[1]);
    expect(objectText(pdf, table!, 0)).toBeNull();
    expect(objectText(pdf, table!, 3)).toBeNull();
  });

  it('refuses an entry that is not twenty bytes of offset, generation and kind', () => {
    expect(readXrefTable(file(([catalog, string]) => `0 2\n${entry(0, 'f')}${entry(catalog!)}5 1\n${String(string).padStart(9, '0')} 00000 n  \n`))).toBeNull();
    expect(readXrefTable(file(([catalog]) => `0 2\n${entry(0, 'f')}${entry(catalog!, 'x')}`))).toBeNull();
    // an object that is not where its entry says
    const pdf = file(([catalog, string]) => `0 2\n${entry(0, 'f')}${entry(catalog! + 1)}5 1\n${entry(string!)}`);
    expect(objectText(pdf, readXrefTable(pdf)!, 1)).toBeNull();
  });
});
