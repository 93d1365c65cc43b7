// Paper sizes and CSS lengths, resolved here in inches so the renderer decides the geometry
// rather than depending on how puppeteer names or rounds formats. The rules are @svc/rules',
// the same ones request admission applied; this re-check only keeps a wrong artifact from
// being printed if a caller skipped admission.
import { type PdfOptions, RenderError } from '@svc/contracts';
import { isPageProblem, pageGeometry, type PageGeometry } from '@svc/rules';

export type { PageGeometry } from '@svc/rules';

export function resolveGeometry(pdf: PdfOptions): PageGeometry {
  const geometry = pageGeometry(pdf);
  if (!isPageProblem(geometry)) return geometry;
  const field = ['pdf', ...geometry.path].join('.');
  if (geometry.problem === 'not_a_length') throw new RenderError('invalid_input', 'invalid_length', `${field} is not a length with unit px, in, cm or mm`);
  if (geometry.problem === 'no_printable_area') {
    throw new RenderError('invalid_input', 'invalid_page_layout', 'the page size and margins leave no printable area');
  }
  throw new RenderError('invalid_input', 'invalid_page_size', `${field}: ${geometry.problem}`);
}

const CSS_PIXELS_PER_INCH = 96;

/** The width content is laid out at when printed, in CSS pixels: the sheet (as oriented) less its side margins, at the print scale. */
export function printableWidthPx(pdf: PdfOptions, geometry: PageGeometry): number {
  const sheetWidth = pdf.landscape ? geometry.heightIn : geometry.widthIn;
  return ((sheetWidth - geometry.margins.left - geometry.margins.right) * CSS_PIXELS_PER_INCH) / (pdf.scale ?? 1);
}
