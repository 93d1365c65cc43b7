// The page-box trim of metadata.ts without parsing and rewriting the whole document: Chromium
// writes every object uncompressed except stream bodies, so each page's /MediaBox array can be
// rewritten where it stands, padded with spaces to its old length. Every byte offset, and with
// it the cross-reference table, stays valid. The file is read as one latin1 string (a byte per
// character, so string offsets are byte offsets): a tagged ten-page table of some 4,000
// objects is finished in about two milliseconds instead of a full pdf-lib load and save.
// Anything unexpected returns null and the caller takes the pdf-lib path.
import { type PageSizePt, trimmedBox } from './metadata.ts';

const MEDIA_BOX = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/g;

/**
 * Trims Chromium's rounded page boxes to `size` in place. Returns the page count, or null when
 * the document is not laid out as expected (then `pdf` is left untouched).
 */
export function trimPageBoxesInPlace(pdf: Buffer, size: PageSizePt): { pageCount: number } | null {
  const source = pdf.toString('latin1');
  const objects = objectDictionaries(source);
  if (!objects) return null;
  const pageFrom = nextOccurrence(source, '/Page');
  const titleFrom = nextOccurrence(source, '/Title');
  const edits: { start: number; text: string }[] = [];
  let pages = 0;
  let declaredPages = 0;
  for (const { start, end } of objects) {
    // neither a page, the page tree (/Page, /Pages) nor the Info dictionary (/Title): no need to read it
    const page = pageFrom(start);
    const title = titleFrom(start);
    if ((page === -1 || page >= end) && (title === -1 || title >= end)) continue;
    const dictionary = source.slice(start, end);
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
 * Where `needle` next occurs at or after a position (-1: nowhere), with the last answer
 * remembered: asked for object after object, each search would otherwise run on to the
 * same far occurrence again.
 */
function nextOccurrence(source: string, needle: string): (from: number) => number {
  let searchedFrom = Number.POSITIVE_INFINITY;
  let found = -1;
  return (from) => {
    if (!(searchedFrom <= from && (found === -1 || found >= from))) {
      searchedFrom = from;
      found = source.indexOf(needle, from);
    }
    return found;
  };
}

/**
 * The dictionary text of every object the cross-reference table lists: from `N G obj` to its
 * `stream` keyword or `endobj`, so stream bodies are never read as syntax. Null for anything
 * other than a single classic xref table (incremental updates, xref streams).
 */
function objectDictionaries(pdf: string): { start: number; end: number }[] | null {
  const tail = pdf.slice(Math.max(0, pdf.length - 64));
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!startxref) return null;
  const xrefAt = Number(startxref[1]);
  if (pdf.slice(xrefAt, xrefAt + 4) !== 'xref') return null;
  // one subsection starting at 0, as Chromium writes it
  const header = /^xref\r?\n0 (\d+)\r?\n/.exec(pdf.slice(xrefAt, xrefAt + 32));
  if (!header) return null;
  const count = Number(header[1]);
  const tableAt = xrefAt + header[0].length;
  // an incremental update chains to an older table; only a single, complete table is handled
  if (pdf.includes('/Prev', tableAt + count * 20)) return null;
  const entry = /(\d{10}) (\d{5}) ([nf])/y;
  const head = /(\d+) (\d+) obj\s/y;
  const offsets: number[] = [];
  for (let index = 0; index < count; index += 1) {
    entry.lastIndex = tableAt + index * 20;
    const match = entry.exec(pdf);
    if (!match) return null;
    if (match[3] === 'f') continue;
    const offset = Number(match[1]);
    head.lastIndex = offset;
    const object = head.exec(pdf);
    if (!object || Number(object[1]) !== index) return null;
    offsets.push(offset);
  }
  // in file order, so that each search below reads each byte once
  offsets.sort((a, b) => a - b);
  const endobjFrom = nextOccurrence(pdf, 'endobj');
  const streamFrom = nextOccurrence(pdf, 'stream');
  const objects: { start: number; end: number }[] = [];
  for (const offset of offsets) {
    const endobj = endobjFrom(offset);
    if (endobj === -1) return null;
    const stream = streamFrom(offset);
    objects.push({ start: offset, end: stream === -1 || stream > endobj ? endobj : stream });
  }
  return objects;
}
