// PDF capture of a loaded sandbox page: canvas page selection, then Chromium's printer with
// the geometry and options of spec 2.4.
import type { Page, PDFOptions } from 'puppeteer-core';
import { pdfPasswordBytes, pdfScale, utf8Bytes } from '@svc/rules';
import { arrangeForPrint } from '../canvas/select-canvas-pages.ts';
import { RenderError } from '../errors.ts';
import type { PdfOptions } from '../types.ts';
import { resolveGeometry, type PageGeometry } from './page-size.ts';

/** Chromium draws its default date/title/URL header when a template is empty; spec 2.4 says empty. */
const EMPTY_TEMPLATE = '<span></span>';

/** Checks that need no browser, so a bad request never takes a pool slot. */
export function preparePdf(pdf: PdfOptions): PageGeometry {
  const scale = pdf.scale ?? 1;
  if (!(scale >= pdfScale.min && scale <= pdfScale.max)) throw new RenderError('invalid_input', 'invalid_scale', 'pdf.scale must be within 0.1 and 2');
  if (pdf.password !== undefined) {
    const bytes = utf8Bytes(pdf.password);
    if (bytes < pdfPasswordBytes.min || bytes > pdfPasswordBytes.max) throw new RenderError('invalid_input', 'invalid_password', 'pdf.password must be 1 to 127 bytes');
  }
  return resolveGeometry(pdf);
}

export async function capturePdf(page: Page, pdf: PdfOptions, geometry: PageGeometry, pages: readonly string[] | undefined): Promise<Uint8Array> {
  if (pages) await arrangeForPrint(page, pages);
  const inches = (value: number) => `${value}in`;
  const options: PDFOptions = {
    width: inches(geometry.widthIn),
    height: inches(geometry.heightIn),
    landscape: pdf.landscape ?? false,
    margin: {
      top: inches(geometry.margins.top),
      right: inches(geometry.margins.right),
      bottom: inches(geometry.margins.bottom),
      left: inches(geometry.margins.left),
    },
    printBackground: pdf.print_background ?? true,
    scale: pdf.scale ?? 1,
    displayHeaderFooter: pdf.display_header_footer ?? false,
    headerTemplate: pdf.header_template || EMPTY_TEMPLATE,
    footerTemplate: pdf.footer_template || EMPTY_TEMPLATE,
    // the requested size wins over any @page size in the document
    preferCSSPageSize: false,
    // fonts were awaited after load; the job deadline bounds printing
    waitForFonts: false,
    timeout: 0,
  };
  try {
    return await page.pdf(options);
  } catch (error) {
    // Chromium refuses geometry it cannot lay out (margins wider than the sheet, say)
    if (error instanceof Error && /invalid|content area is empty/i.test(error.message)) {
      throw new RenderError('invalid_input', 'invalid_page_layout', 'the page size and margins leave no printable area', { cause: error });
    }
    throw error;
  }
}
