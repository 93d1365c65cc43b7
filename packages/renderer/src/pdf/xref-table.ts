// A PDF's last classic cross-reference table, read from its bytes: where each object in use
// starts, and the trailer after it. Chromium, and pdf-lib without object streams, write the
// table as subsections of fixed 20-byte entries, so it is read by position and digit, not by
// pattern: the 3,843 entries of a tagged ten-page table are read in about 0.2 ms, where a
// pattern per line took about 1 ms. Anything else (a cross-reference stream, an entry of
// another width) is null.

export interface Reference {
  number: number;
  generation: number;
}

export interface XrefTable {
  /** Where the table's `xref` keyword starts: the objects it lists all end before it. */
  at: number;
  /** The trailer, from its keyword to the end of the file. */
  trailer: string;
  /** Where each object in use starts, by object number (-1: free or not listed). */
  offsets: Int32Array;
  /** The same offsets in file order. */
  sorted: Int32Array;
}

const SPACE = 0x20;
const CR = 0x0d;
const LF = 0x0a;
const ZERO = 0x30;
const ENTRY_BYTES = 20;

export function readXrefTable(pdf: Buffer): XrefTable | null {
  const text = (start: number, end?: number) => pdf.toString('latin1', start, end);
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text(Math.max(0, pdf.length - 64)));
  if (!startxref) return null;
  const at = Number(startxref[1]);
  if (text(at, at + 4) !== 'xref') return null;
  let offsets = new Int32Array(0);
  const used: number[] = [];
  let position = skipSpace(pdf, at + 4);
  while (text(position, position + 7) !== 'trailer') {
    const first = digits(pdf, position);
    if (!first) return null;
    const count = digits(pdf, first.end + 1);
    if (!count || pdf[first.end] !== SPACE) return null;
    position = skipSpace(pdf, count.end);
    if (position === count.end || position + count.value * ENTRY_BYTES > pdf.length) return null;
    if (first.value + count.value > offsets.length) {
      const grown = new Int32Array(first.value + count.value).fill(-1);
      grown.set(offsets);
      offsets = grown;
    }
    for (let index = 0; index < count.value; index += 1, position += ENTRY_BYTES) {
      const offset = fixedDigits(pdf, position, 10);
      const kind = pdf[position + 17];
      const endsLine = isSpace(pdf[position + 18]) && isSpace(pdf[position + 19]);
      if (offset < 0 || pdf[position + 10] !== SPACE || fixedDigits(pdf, position + 11, 5) < 0 || pdf[position + 16] !== SPACE || !endsLine) return null;
      if (kind === 0x6e /* n */) {
        offsets[first.value + index] = offset;
        used.push(offset);
      } else if (kind !== 0x66 /* f */) return null;
    }
    position = skipSpace(pdf, position);
  }
  return { at, trailer: text(position), offsets, sorted: Int32Array.from(used).sort() };
}

/** The reference `/Key N G R` of `dictionary` names, or null. */
export function referenceIn(dictionary: string, key: string): Reference | null {
  const match = new RegExp(`/${key}\\s+(\\d+)\\s+(\\d+)\\s+R`).exec(dictionary);
  return match ? { number: Number(match[1]), generation: Number(match[2]) } : null;
}

/**
 * An object's text, `N G obj` up to where the next object in the file (or the table) begins, so
 * an `endobj` inside one of its strings is never taken for its end. For the plain dictionaries
 * read here (catalog, page tree, pages, Info), never a stream. Null when the object is not
 * where the table says.
 */
export function objectText(pdf: Buffer, table: XrefTable, number: number): string | null {
  const start = table.offsets[number] ?? -1;
  if (start < 0) return null;
  let end = table.at;
  const { sorted } = table;
  // the first object starting after this one, by binary search over the file order
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const offset = sorted[middle] as number;
    if (offset > start) {
      end = Math.min(end, offset);
      high = middle - 1;
    } else low = middle + 1;
  }
  const text = pdf.toString('latin1', start, end);
  const head = /^(\d+)\s+(\d+)\s+obj\b/.exec(text);
  return head && Number(head[1]) === number ? text : null;
}

function isSpace(byte: number | undefined): boolean {
  return byte === SPACE || byte === CR || byte === LF;
}

function skipSpace(pdf: Buffer, position: number): number {
  while (isSpace(pdf[position])) position += 1;
  return position;
}

/** The unsigned integer at `position` and where its digits end, or null when none is there. */
function digits(pdf: Buffer, position: number): { value: number; end: number } | null {
  let value = 0;
  let end = position;
  for (let byte = pdf[end]; byte !== undefined && byte >= ZERO && byte <= ZERO + 9 && end - position < 10; byte = pdf[++end]) value = value * 10 + byte - ZERO;
  return end > position ? { value, end } : null;
}

/** Exactly `width` digits at `position` as a number, or -1. */
function fixedDigits(pdf: Buffer, position: number, width: number): number {
  let value = 0;
  for (let index = position; index < position + width; index += 1) {
    const byte = pdf[index];
    if (byte === undefined || byte < ZERO || byte > ZERO + 9) return -1;
    value = value * 10 + byte - ZERO;
  }
  return value;
}
