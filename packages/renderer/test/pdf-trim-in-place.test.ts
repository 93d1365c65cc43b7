// The in-place page-box trim must give the same boxes as the pdf-lib path, keep the file
// readable (every offset valid), and refuse layouts it does not understand. Chromium's own
// output goes through it in pdf-options.test.ts, checked there with pdfinfo.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { finishDocument } from '../src/pdf/metadata.ts';
import { trimPageBoxesInPlace } from '../src/pdf/trim-in-place.ts';

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
});
