// Paper sizes and CSS lengths, resolved here in inches so the renderer decides the geometry
// rather than depending on how puppeteer names or rounds formats.
import { RenderError } from '../errors.ts';
import type { PaperFormat, PdfOptions } from '../types.ts';

const MM_PER_INCH = 25.4;

/** Portrait width x height in inches; ISO sizes are exact in millimetres. */
export const PAPER_SIZES: Record<PaperFormat, { width: number; height: number }> = {
  A0: { width: 841 / MM_PER_INCH, height: 1189 / MM_PER_INCH },
  A1: { width: 594 / MM_PER_INCH, height: 841 / MM_PER_INCH },
  A2: { width: 420 / MM_PER_INCH, height: 594 / MM_PER_INCH },
  A3: { width: 297 / MM_PER_INCH, height: 420 / MM_PER_INCH },
  A4: { width: 210 / MM_PER_INCH, height: 297 / MM_PER_INCH },
  A5: { width: 148 / MM_PER_INCH, height: 210 / MM_PER_INCH },
  A6: { width: 105 / MM_PER_INCH, height: 148 / MM_PER_INCH },
  Letter: { width: 8.5, height: 11 },
  Legal: { width: 8.5, height: 14 },
  Ledger: { width: 17, height: 11 },
  Tabloid: { width: 11, height: 17 },
};

const INCHES_PER_UNIT = { px: 1 / 96, in: 1, cm: 1 / 2.54, mm: 1 / MM_PER_INCH } as const;

// spec 2.4: a number with up to 4 decimals followed by px, in, cm or mm
const LENGTH = /^(\d+(?:\.\d{1,4})?)(px|in|cm|mm)$/;

/** A CSS length in inches; `field` names the option in the error code's log message. */
export function parseLength(value: string, field: string): number {
  const match = LENGTH.exec(value.trim());
  if (!match) throw new RenderError('invalid_input', 'invalid_length', `${field} is not a length with unit px, in, cm or mm`);
  return Number(match[1]) * INCHES_PER_UNIT[match[2] as keyof typeof INCHES_PER_UNIT];
}

export interface PageGeometry {
  /** portrait-as-given width and height in inches; landscape is applied by the printer */
  widthIn: number;
  heightIn: number;
  margins: { top: number; right: number; bottom: number; left: number };
}

export function resolveGeometry(pdf: PdfOptions): PageGeometry {
  const hasWidth = pdf.width !== undefined;
  const hasHeight = pdf.height !== undefined;
  if (hasWidth !== hasHeight) throw new RenderError('invalid_input', 'invalid_page_size', 'width and height go together');
  if (hasWidth && pdf.format !== undefined) throw new RenderError('invalid_input', 'invalid_page_size', 'format excludes width and height');

  let widthIn: number;
  let heightIn: number;
  if (pdf.width !== undefined && pdf.height !== undefined) {
    widthIn = parseLength(pdf.width, 'pdf.width');
    heightIn = parseLength(pdf.height, 'pdf.height');
    if (widthIn <= 0 || heightIn <= 0) throw new RenderError('invalid_input', 'invalid_page_size', 'page size must be positive');
  } else {
    const size = PAPER_SIZES[pdf.format ?? 'A4'];
    if (!size) throw new RenderError('invalid_input', 'invalid_page_size', 'unknown paper format');
    ({ width: widthIn, height: heightIn } = size);
  }

  const margin = (value: string | undefined, side: string) => (value === undefined ? 0 : parseLength(value, `pdf.margins.${side}`));
  const margins = {
    top: margin(pdf.margins?.top, 'top'),
    right: margin(pdf.margins?.right, 'right'),
    bottom: margin(pdf.margins?.bottom, 'bottom'),
    left: margin(pdf.margins?.left, 'left'),
  };
  return { widthIn, heightIn, margins };
}
