// Which faces Chromium embedded in a printed PDF: the FontName of each font descriptor, read
// from the printer's own output (before post-processing, which may compress or encrypt it).
// Chromium writes its font descriptors as plain objects, so a scan of the bytes finds them.
import type { FindingsCollector } from './findings-collector.ts';

const FONT_NAME = /\/FontName\s*\/([^\s/<>[\]()%]+)/g;
/** Embedded subsets are named with a six-letter tag: ABCDEF+Face. */
const SUBSET_TAG = /^[A-Z]{6}\+/;

export function embeddedFaceNames(pdf: Uint8Array): Set<string> {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const names = new Set<string>();
  for (const match of text.matchAll(FONT_NAME)) {
    // PDF names escape characters outside the regular set as #xx
    const name = match[1]!.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    names.add(name.replace(SUBSET_TAG, ''));
  }
  return names;
}

/** Marks each face of the findings as embedded in the printed file or not. */
export function markEmbeddedFaces(found: FindingsCollector, printed: Uint8Array): void {
  if (found.findings.fonts.length === 0) return;
  const embedded = embeddedFaceNames(printed);
  for (const font of found.findings.fonts) font.embedded = embedded.has(font.face);
}
