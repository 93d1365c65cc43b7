// The page-box trim of metadata.ts without parsing and rewriting the whole document: Chromium
// writes every object uncompressed except stream bodies, so each page's /MediaBox array can be
// rewritten where it stands, padded with spaces to its old length. Every byte offset, and with
// it the cross-reference table, stays valid. Only the objects that hold /Page or /Title (pages,
// the page tree, the Info dictionary) are read: a tagged ten-page table of some 4,000 objects,
// almost all structure elements, is finished in about a millisecond instead of a full
// pdf-lib load and save. Anything unexpected returns null and the caller takes the pdf-lib path.
import { type PageSizePt, trimmedBox } from './metadata.ts';

const MEDIA_BOX = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/g;

/**
 * Trims Chromium's rounded page boxes to `size` in place. Returns the page count, or null when
 * the document is not laid out as expected (then `pdf` is left untouched).
 */
export function trimPageBoxesInPlace(pdf: Buffer, size: PageSizePt): { pageCount: number } | null {
  const dictionaries = candidateDictionaries(pdf);
  if (!dictionaries) return null;
  const edits: { start: number; text: string }[] = [];
  let pages = 0;
  let declaredPages = 0;
  for (const { start, dictionary } of dictionaries) {
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
 * The dictionary text (from `N G obj` to its `stream` keyword or `endobj`, so stream bodies are
 * never read as syntax) of every object whose dictionary holds /Page or /Title, with where it
 * starts. The objects are found through the cross-reference table. Null for anything other
 * than a single classic xref table (incremental updates, xref streams) or an object that is
 * not where the table says.
 */
function candidateDictionaries(pdf: Buffer): { start: number; dictionary: string }[] | null {
  const entries = xrefEntries(pdf);
  if (!entries) return null;
  const candidates = new Set<XrefEntry>();
  for (const needle of ['/Page', '/Title']) {
    for (let at = pdf.indexOf(needle); at !== -1; at = pdf.indexOf(needle, at + needle.length)) {
      const found = containing(entries, at);
      if (found) candidates.add(found);
    }
  }
  const dictionaries: { start: number; dictionary: string }[] = [];
  for (const { offset: start, number } of candidates) {
    const head = /^(\d+) (\d+) obj\s/.exec(pdf.toString('latin1', start, start + 24));
    if (!head || Number(head[1]) !== number) return null;
    const endobj = pdf.indexOf('endobj', start);
    if (endobj === -1) return null;
    const stream = pdf.subarray(start, endobj).indexOf('stream');
    const end = stream === -1 ? endobj : start + stream;
    const dictionary = pdf.toString('latin1', start, end);
    // a match inside a stream body is no part of the dictionary
    if (dictionary.includes('/Page') || dictionary.includes('/Title')) dictionaries.push({ start, dictionary });
  }
  return dictionaries;
}

/** An object in use, as the cross-reference table lists it. */
interface XrefEntry {
  number: number;
  offset: number;
}

/** The table's objects in use, in file order; null unless it is one complete classic table. */
function xrefEntries(pdf: Buffer): XrefEntry[] | null {
  const tail = pdf.toString('latin1', Math.max(0, pdf.length - 64));
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!startxref) return null;
  const xrefAt = Number(startxref[1]);
  if (pdf.toString('latin1', xrefAt, xrefAt + 4) !== 'xref') return null;
  // one subsection starting at 0, as Chromium writes it
  const header = /^xref\r?\n0 (\d+)\r?\n/.exec(pdf.toString('latin1', xrefAt, xrefAt + 32));
  if (!header) return null;
  const count = Number(header[1]);
  const tableAt = xrefAt + header[0].length;
  // an incremental update chains to an older table; only a single, complete table is handled
  if (pdf.toString('latin1', tableAt + count * 20).includes('/Prev')) return null;
  const table = pdf.toString('latin1', tableAt, tableAt + count * 20);
  const entry = /(\d{10}) (\d{5}) ([nf])/y;
  const entries: XrefEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    entry.lastIndex = index * 20;
    const match = entry.exec(table);
    if (!match) return null;
    if (match[3] === 'n') entries.push({ number: index, offset: Number(match[1]) });
  }
  return entries.sort((a, b) => a.offset - b.offset);
}

/** The object (of `entries`, in file order) that byte `at` lies in, or null before the first. */
function containing(entries: XrefEntry[], at: number): XrefEntry | null {
  let low = 0;
  let high = entries.length - 1;
  let found: XrefEntry | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const candidate = entries[middle] as XrefEntry;
    if (candidate.offset <= at) {
      found = candidate;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
