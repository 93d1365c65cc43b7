// PDF page geometry of the render request rules, decided before a job is admitted: a request whose pages the
// printer cannot lay out answers 400 instead of becoming a job that fails.
import { lengthInInches } from './lengths.mjs';

export const paperFormats = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Ledger', 'Tabloid'] as const;
export type PaperFormat = (typeof paperFormats)[number];

const mm = (value: number) => value / 25.4;

/** Portrait width and height in inches; ISO sizes are exact in millimetres. */
export const paperSizes: Record<PaperFormat, { width: number; height: number }> = {
  A0: { width: mm(841), height: mm(1189) },
  A1: { width: mm(594), height: mm(841) },
  A2: { width: mm(420), height: mm(594) },
  A3: { width: mm(297), height: mm(420) },
  A4: { width: mm(210), height: mm(297) },
  A5: { width: mm(148), height: mm(210) },
  A6: { width: mm(105), height: mm(148) },
  Letter: { width: 8.5, height: 11 },
  Legal: { width: 8.5, height: 14 },
  Ledger: { width: 17, height: 11 },
  Tabloid: { width: 11, height: 17 },
};

/**
 * The largest page side: 200 inches (14,400 points), the page size limit of the PDF format as
 * readers implement it (PDF 1.7 annex C). Larger pages are refused rather than printed wrong.
 */
export const maxPageInches = 200;

/** PDF scale (the render request rules). */
export const pdfScale = { min: 0.1, max: 2 } as const;
/** Header and footer templates: characters. */
export const maxHeaderFooterChars = 100_000;
/** Title, author and subject: characters. */
export const maxPdfMetadataChars = 256;
/** Open password: UTF-8 bytes. */
export const pdfPasswordBytes = { min: 1, max: 127 } as const;

export interface PageOptions {
  format?: PaperFormat;
  width?: string;
  height?: string;
  landscape?: boolean;
  margins?: { top?: string; right?: string; bottom?: string; left?: string };
}

export interface PageGeometry {
  /** portrait-as-given width and height in inches; landscape is applied by the printer */
  widthIn: number;
  heightIn: number;
  margins: { top: number; right: number; bottom: number; left: number };
}

/** Why a page cannot be laid out, and the option to blame (a path below `pdf`). */
export interface PageProblem {
  path: string[];
  problem: 'not_a_length' | 'not_positive' | 'too_large' | 'pair' | 'format_and_size' | 'no_printable_area';
}

/** The page geometry, or the first problem that makes it impossible. */
export function pageGeometry(pdf: PageOptions): PageGeometry | PageProblem {
  if (pdf.format !== undefined && (pdf.width !== undefined || pdf.height !== undefined)) {
    return { path: [pdf.width !== undefined ? 'width' : 'height'], problem: 'format_and_size' };
  }
  if ((pdf.width === undefined) !== (pdf.height === undefined)) return { path: [pdf.width === undefined ? 'width' : 'height'], problem: 'pair' };
  let widthIn: number;
  let heightIn: number;
  if (pdf.width !== undefined && pdf.height !== undefined) {
    const sides: [string, string][] = [
      ['width', pdf.width],
      ['height', pdf.height],
    ];
    const inches: number[] = [];
    for (const [name, text] of sides) {
      const value = lengthInInches(text);
      if (value === null) return { path: [name], problem: 'not_a_length' };
      if (!(value > 0)) return { path: [name], problem: 'not_positive' };
      if (value > maxPageInches) return { path: [name], problem: 'too_large' };
      inches.push(value);
    }
    [widthIn, heightIn] = inches as [number, number];
  } else {
    ({ width: widthIn, height: heightIn } = paperSizes[pdf.format ?? 'A4']);
  }
  const margins = { top: 0, right: 0, bottom: 0, left: 0 };
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    const text = pdf.margins?.[side];
    if (text === undefined) continue;
    const value = lengthInInches(text);
    if (value === null) return { path: ['margins', side], problem: 'not_a_length' };
    margins[side] = value;
  }
  // margins apply to the sheet as printed: landscape swaps its sides
  const [across, down] = pdf.landscape ? [heightIn, widthIn] : [widthIn, heightIn];
  if (margins.left + margins.right >= across) return { path: ['margins', margins.left >= margins.right ? 'left' : 'right'], problem: 'no_printable_area' };
  if (margins.top + margins.bottom >= down) return { path: ['margins', margins.top >= margins.bottom ? 'top' : 'bottom'], problem: 'no_printable_area' };
  return { widthIn, heightIn, margins };
}

export const isPageProblem = (value: PageGeometry | PageProblem): value is PageProblem => 'problem' in value;
