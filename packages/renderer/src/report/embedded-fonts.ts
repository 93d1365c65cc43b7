// The fonts list of a PDF, read from the printer's own output (before post-processing, which
// may compress or encrypt it): the FontName of each font descriptor, which Chromium writes as
// plain objects, so a scan of the bytes finds them. Two cases need the page itself (DevTools'
// platform fonts of sampled elements, the costly way images always take): faces Chromium writes
// as Type 3 fonts (CFF outlines such as Inter or Noto CJK, colour emoji) carry no name, and a
// web font named like an installed face cannot be told from it by name. The page-margin boxes
// (@page @bottom-center ...) are the other way round: the printer draws them, they are no
// elements, and only the file can say which faces drew them.
import { inflateSync } from 'node:zlib';
import type { ReportFont } from '@svc/contracts';
import type { FindingsCollector } from './findings-collector.ts';
import { streamObject } from './pdf-streams.ts';
import { sfntFamilyName } from './sfnt-family.ts';
import { systemFaceFamilies } from './system-glyphs.ts';

const FONT_NAME = /\/FontName\s*\/([^\s/<>[\]()%]+)/g;
const FONT_FILE = /\/FontFile2\s+(\d+)\s+0\s+R/;
const TYPE3_FONT = /\/Subtype\s*\/Type3\b/;
/** Embedded subsets are named with a six-letter tag: ABCDEF+Face. */
const SUBSET_TAG = /^[A-Z]{6}\+/;

/** A PDF's bytes as a string of the same length, for scans by pattern. */
export function latin1(pdf: Uint8Array): string {
  return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
}

export function embeddedFaceNames(pdf: Uint8Array | string): Set<string> {
  const text = typeof pdf === 'string' ? pdf : latin1(pdf);
  const names = new Set<string>();
  for (const match of text.matchAll(FONT_NAME)) {
    names.add(faceName(match[1]!));
  }
  return names;
}

/** A descriptor's FontName as a face's PostScript name: #xx escapes (characters outside a PDF name's set) undone, subset tag removed. */
function faceName(escaped: string): string {
  return escaped.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))).replace(SUBSET_TAG, '');
}

/**
 * The family of the embedded face `face` (its PostScript name) as its own file names it, from the
 * name table of the font program the file embeds; null when there is none (a Type 3 face has
 * glyph procedures only) or it cannot be read.
 */
export function embeddedFamilyName(printed: PrintedFile, face: string): string | null {
  const { bytes, text } = printed;
  for (const match of text.matchAll(FONT_NAME)) {
    if (faceName(match[1]!) !== face) continue;
    // the font descriptor: the object around the FontName
    const end = text.indexOf('endobj', match.index);
    const descriptor = text.slice(text.lastIndexOf(' obj', match.index), end === -1 ? match.index + 2000 : end);
    const program = FONT_FILE.exec(descriptor)?.[1];
    const stream = program ? streamObject(bytes, text, Number(program)) : null;
    if (!stream) continue;
    try {
      const family = sfntFamilyName(/\/FlateDecode/.test(stream.dictionary) ? inflateSync(stream.data) : stream.data);
      if (family) return family;
    } catch {
      // a program that does not inflate: no name from it
    }
  }
  return null;
}

/** Whether the printed file holds faces it does not name (Type 3 fonts): then the page is asked. */
export function hasUnnamedFaces(text: string): boolean {
  return TYPE3_FONT.test(text);
}

/** The printed file: its bytes, and the same as a latin1 string for scans by pattern. */
export interface PrintedFile {
  bytes: Buffer;
  text: string;
}

/** What the page told about the fonts: whether the document loaded web fonts and has page-margin boxes. */
export interface PageFonts {
  webFonts: boolean;
  marginBoxes: boolean;
}

/**
 * Sets the findings' fonts from the printed file (the page still loaded, for a file with unnamed
 * faces or a document with web fonts). Every face the printer drew is in the file, by name or as
 * Type 3 glyph procedures.
 */
export async function reportPrintedFaces(found: FindingsCollector, printed: PrintedFile, page: PageFonts, askPage: () => Promise<ReportFont[]>): Promise<void> {
  const named = embeddedFaceNames(printed.text);
  const unnamed = hasUnnamedFaces(printed.text);
  if (page.webFonts || unnamed) {
    const fonts: ReportFont[] = await askPage().catch(() => []);
    for (const font of fonts) font.embedded = unnamed || named.has(font.face);
    if (page.marginBoxes) {
      // the elements' faces are the page's answer; a face the file names that no element drew
      // drew the margin boxes (or text past the samples): it is listed as the file names it
      const drawn = new Set(fonts.map((font) => font.face));
      const unclaimed = [...named].filter((face) => !drawn.has(face.slice(0, 200)));
      if (unclaimed.length > 0) fonts.push(...(await namedFaces(unclaimed, found.brandFamilies, printed)));
    }
    found.fonts(fonts);
    return;
  }
  found.fonts(await namedFaces(named, found.brandFamilies, printed));
}

const compact = (name: string) => name.replace(/[\s-]/g, '').toLowerCase();

/**
 * Faces known by their PostScript names: the system's by fontconfig, the others the document's or
 * the brand kit's, with the family their embedded program names (else the PostScript name's first part).
 */
async function namedFaces(names: Iterable<string>, brandFamilies: ReadonlySet<string>, printed: PrintedFile): Promise<ReportFont[]> {
  const system = await systemFaceFamilies();
  const fonts: ReportFont[] = [];
  for (const face of names) {
    const family = system?.get(face);
    if (family) {
      fonts.push({ family, face, source: 'system', embedded: true, glyphs: null });
      continue;
    }
    const own = embeddedFamilyName(printed, face);
    const brand = own ? (brandFamilies.has(own) ? own : undefined) : [...brandFamilies].find((candidate) => compact(face).startsWith(compact(candidate)));
    fonts.push({ family: (own ?? brand ?? face.split('-')[0] ?? face).slice(0, 200), face: face.slice(0, 200), source: brand ? 'brand_kit' : 'document', embedded: true, glyphs: null });
  }
  return fonts;
}
