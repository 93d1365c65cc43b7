// The fonts list of a PDF, read from the printer's own output (before post-processing, which
// may compress or encrypt it): the FontName of each font descriptor, which Chromium writes as
// plain objects, so a scan of the bytes finds them. Two cases need the page itself (DevTools'
// platform fonts of sampled elements, the costly way images always take): faces Chromium writes
// as Type 3 fonts (CFF outlines such as Inter or Noto CJK, colour emoji) carry no name, and a
// web font named like an installed face cannot be told from it by name.
import type { ReportFont } from '@svc/contracts';
import type { FindingsCollector } from './findings-collector.ts';
import { systemFaceFamilies } from './system-glyphs.ts';

const FONT_NAME = /\/FontName\s*\/([^\s/<>[\]()%]+)/g;
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
    // PDF names escape characters outside the regular set as #xx
    const name = match[1]!.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    names.add(name.replace(SUBSET_TAG, ''));
  }
  return names;
}

/** Whether the printed file holds faces it does not name (Type 3 fonts): then the page is asked. */
export function hasUnnamedFaces(text: string): boolean {
  return TYPE3_FONT.test(text);
}

/**
 * Sets the findings' fonts from the printed file (`text`, see latin1; the page still loaded, for
 * a file with unnamed faces). Every face the printer drew is in the file, by name or as Type 3 glyph procedures.
 */
export async function reportPrintedFaces(found: FindingsCollector, text: string, webFonts: boolean, askPage: () => Promise<ReportFont[]>): Promise<void> {
  const named = embeddedFaceNames(text);
  const unnamed = hasUnnamedFaces(text);
  if (webFonts || unnamed) {
    const fonts = await askPage().catch(() => []);
    for (const font of fonts) font.embedded = unnamed || named.has(font.face);
    found.fonts(fonts);
    return;
  }
  found.fonts(await namedFaces(named, found.brandFamilies));
}

const compact = (name: string) => name.replace(/[\s-]/g, '').toLowerCase();

/** Faces known by their PostScript names: the system's by fontconfig, the others the document's or the brand kit's. */
async function namedFaces(names: ReadonlySet<string>, brandFamilies: ReadonlySet<string>): Promise<ReportFont[]> {
  const system = await systemFaceFamilies();
  const fonts: ReportFont[] = [];
  for (const face of names) {
    const family = system?.get(face);
    if (family) {
      fonts.push({ family, face, source: 'system', embedded: true, glyphs: null });
      continue;
    }
    const brand = [...brandFamilies].find((candidate) => compact(face).startsWith(compact(candidate)));
    fonts.push({ family: (brand ?? face.split('-')[0] ?? face).slice(0, 200), face: face.slice(0, 200), source: brand ? 'brand_kit' : 'document', embedded: true, glyphs: null });
  }
  return fonts;
}
