// The page-box trim of metadata.ts without parsing and rewriting the whole document: Chromium
// writes every object uncompressed except stream bodies, so each page's /MediaBox array can be
// rewritten where it stands, padded with spaces to its old length. Every byte offset, and with
// it the cross-reference table, stays valid. A ten-page PDF is finished in well under a
// millisecond instead of a full pdf-lib load and save. Anything unexpected returns null and
// the caller takes the pdf-lib path.
import { type PageSizePt, trimmedBox } from './metadata.ts';

const MEDIA_BOX = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/g;

/**
 * Trims Chromium's rounded page boxes to `size` in place. Returns the page count, or null when
 * the document is not laid out as expected (then `pdf` is left untouched).
 */
export function trimPageBoxesInPlace(pdf: Buffer, size: PageSizePt): { pageCount: number } | null {
  const objects = objectDictionaries(pdf);
  if (!objects) return null;
  const edits: { start: number; text: string }[] = [];
  let pages = 0;
  let declaredPages = 0;
  for (const { start, end } of objects) {
    const dictionary = pdf.toString('latin1', start, end);
    // the Info dictionary's title: Chromium's placeholder for untitled documents needs pdf-lib
    if (/\/Title\s*\(about:blank\)/.test(dictionary)) return null;
    const isPage = /\/Type\s*\/Page(?![A-Za-z])/.test(dictionary);
    if (/\/Type\s*\/Pages(?![A-Za-z])/.test(dictionary) && !/\/Parent\s/.test(dictionary)) {
      declaredPages = Number(/\/Count\s+(\d+)/.exec(dictionary)?.[1] ?? Number.NaN);
    }
    if (!isPage) continue;
    pages += 1;
    const boxes = [...dictionary.matchAll(MEDIA_BOX)];
    // a page inheriting its box from the tree, or naming it twice, is not Chromium's layout
    if (boxes.length !== 1) return null;
    const box = boxes[0] as RegExpMatchArray;
    const [x, y, right, top] = box.slice(1, 5).map(Number) as [number, number, number, number];
    const trimmed = trimmedBox({ x, y, width: right - x, height: top - y }, size);
    if (!trimmed) continue;
    // as many decimals as fit in the old text, at least three (a thousandth of a point)
    const corners = [trimmed.x, trimmed.y, trimmed.x + trimmed.width, trimmed.y + trimmed.height];
    const text = [5, 4, 3]
      .map((digits) => `/MediaBox [${corners.map((value) => num(value, digits)).join(' ')}]`)
      .find((candidate) => candidate.length <= box[0].length);
    if (!text) return null;
    edits.push({ start: start + (box.index ?? 0), text: text.padEnd(box[0].length, ' ') });
  }
  if (pages === 0 || pages !== declaredPages) return null;
  for (const edit of edits) pdf.write(edit.text, edit.start, 'latin1');
  return { pageCount: pages };
}

/** A PDF number: trailing zeros and a leading zero dropped (0.03 is written .03). */
function num(value: number, digits: number): string {
  return String(Number(value.toFixed(digits))).replace(/^(-?)0\./, '$1.');
}

/**
 * The dictionary text of every object the cross-reference table lists: from `N G obj` to its
 * `stream` keyword or `endobj`, so stream bodies are never read as syntax. Null for anything
 * other than a single classic xref table (incremental updates, xref streams).
 */
function objectDictionaries(pdf: Buffer): { start: number; end: number }[] | null {
  const tail = pdf.toString('latin1', Math.max(0, pdf.length - 64));
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!startxref) return null;
  const xrefAt = Number(startxref[1]);
  if (pdf.toString('latin1', xrefAt, xrefAt + 4) !== 'xref') return null;
  // one subsection starting at 0, as Chromium writes it
  const header = /^xref\r?\n0 (\d+)\r?\n/.exec(pdf.toString('latin1', xrefAt, xrefAt + 32));
  if (!header) return null;
  const count = Number(header[1]);
  const table = pdf.toString('latin1', xrefAt + header[0].length, xrefAt + header[0].length + count * 20);
  // an incremental update chains to an older table; only a single, complete table is handled
  if (pdf.toString('latin1', xrefAt + header[0].length + count * 20).includes('/Prev')) return null;
  const objects: { start: number; end: number }[] = [];
  for (let index = 0; index < count; index += 1) {
    const entry = table.slice(index * 20, index * 20 + 18);
    const match = /^(\d{10}) (\d{5}) ([nf])$/.exec(entry);
    if (!match) return null;
    if (match[3] === 'f') continue;
    const offset = Number(match[1]);
    const head = /^(\d+) (\d+) obj\s/.exec(pdf.toString('latin1', offset, offset + 24));
    if (!head || Number(head[1]) !== index) return null;
    const endobj = pdf.indexOf('endobj', offset);
    if (endobj === -1) return null;
    // searched within the object only: each byte of the file is read once, not once per object
    const stream = pdf.subarray(offset, endobj).indexOf('stream');
    objects.push({ start: offset, end: stream === -1 ? endobj : offset + stream });
  }
  return objects;
}
