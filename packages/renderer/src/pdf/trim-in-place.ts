// The page-box trim of metadata.ts without parsing and rewriting the whole document: Chromium
// writes every object uncompressed except stream bodies, so each page's /MediaBox array can be
// rewritten where it stands, padded with spaces to its old length. Every byte offset, and with
// it the cross-reference table, stays valid. Only the catalog, the page tree, its pages and the
// Info dictionary are read, where the table says they are: a tagged ten-page table of some
// 4,000 objects, almost all structure elements, is finished in about 0.3 ms
// instead of a full pdf-lib load and save. Anything unexpected returns null and the caller
// takes the pdf-lib path.
import { type PageSizePt, trimmedBox } from './metadata.ts';
import { objectText, readXrefTable, referenceIn } from './xref-table.ts';

const MEDIA_BOX = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/g;

/**
 * Trims Chromium's rounded page boxes to `size` in place. Returns the page count, or null when
 * the document is not laid out as expected (then `pdf` is left untouched).
 */
export function trimPageBoxesInPlace(pdf: Buffer, size: PageSizePt): { pageCount: number } | null {
  const pages = pageDictionaries(pdf);
  if (!pages || pages.length === 0) return null;
  const edits: { start: number; text: string }[] = [];
  for (const { start, dictionary } of pages) {
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
  for (const edit of edits) pdf.write(edit.text, edit.start, 'latin1');
  return { pageCount: pages.length };
}

/** A PDF number: trailing zeros and a leading zero dropped (0.03 is written .03). */
function num(value: number, digits: number): string {
  return String(Number(value.toFixed(digits))).replace(/^(-?)0\./, '$1.');
}

/**
 * The text (from `N G obj` to its end, see objectText) of every page, found from the
 * catalog down the page tree, with where it starts. Null when the Info dictionary carries
 * Chromium's placeholder title, for anything other than a single classic xref table
 * (incremental updates, xref streams), or when an object is not where the table says or the
 * tree does not count the pages it holds.
 */
function pageDictionaries(pdf: Buffer): { start: number; dictionary: string }[] | null {
  const table = readXrefTable(pdf);
  // an incremental update chains to an older table; only a single, complete table is handled
  if (!table || table.trailer.includes('/Prev')) return null;
  const info = referenceIn(table.trailer, 'Info');
  const infoText = info && objectText(pdf, table, info.number);
  // the Info dictionary's title: Chromium's placeholder for untitled documents needs pdf-lib
  if (info && (infoText === null || /\/Title\s*\(about:blank\)/.test(infoText))) return null;
  const root = referenceIn(table.trailer, 'Root');
  const catalog = root && objectText(pdf, table, root.number);
  const tree = catalog && referenceIn(catalog, 'Pages');
  const treeText = tree && objectText(pdf, table, tree.number);
  if (!tree || !treeText) return null;
  const declared = Number(/\/Count\s+(\d+)/.exec(treeText)?.[1] ?? Number.NaN);
  const pages: { start: number; dictionary: string }[] = [];
  const visited = new Set<number>();
  const visit = (number: number, depth: number): boolean => {
    const dictionary = objectText(pdf, table, number);
    if (dictionary === null || visited.has(number) || depth > 32 || pages.length > declared) return false;
    visited.add(number);
    if (/\/Type\s*\/Page(?![A-Za-z])/.test(dictionary)) {
      pages.push({ start: table.offsets[number] as number, dictionary });
      return true;
    }
    if (!/\/Type\s*\/Pages(?![A-Za-z])/.test(dictionary)) return false;
    const kids = /\/Kids\s*\[([^\]]*)\]/.exec(dictionary)?.[1];
    if (kids === undefined) return false;
    for (const kid of kids.matchAll(/(\d+)\s+\d+\s+R/g)) if (!visit(Number(kid[1]), depth + 1)) return false;
    return true;
  };
  return visit(tree.number, 0) && pages.length === declared ? pages : null;
}
