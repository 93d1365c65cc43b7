// PDF capture of a loaded sandbox page: canvas page selection, then Chromium's printer with
// the geometry and options of the render request rules.
import type { CDPSession, Page } from 'puppeteer-core';
import { type PdfOptions, RenderError } from '@svc/contracts';
import { pdfPasswordBytes, pdfScale, utf8Bytes } from '@svc/rules';
import { arrangeForPrint } from '../canvas/select-canvas-pages.ts';
import { printToPdf } from '../browser/devtools-pipe.ts';
import { resolveGeometry, type PageGeometry } from './page-size.ts';

/** Chromium draws its default date/title/URL header when a template is empty; the render request rules say empty. */
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

/**
 * Prints the loaded page with Chromium's printer, as puppeteer's page.pdf would with these
 * options, but asks for the file in the answer itself: one DevTools round trip, where a stream
 * costs a read per chunk and a close.
 */
export async function capturePdf(page: Page, session: CDPSession, pdf: PdfOptions, geometry: PageGeometry, pages: readonly string[] | undefined): Promise<Uint8Array> {
  if (pages) await arrangeForPrint(page, pages);
  try {
    return await printToPdf(page, session, {
      paperWidth: geometry.widthIn,
      paperHeight: geometry.heightIn,
      landscape: pdf.landscape ?? false,
      marginTop: geometry.margins.top,
      marginRight: geometry.margins.right,
      marginBottom: geometry.margins.bottom,
      marginLeft: geometry.margins.left,
      printBackground: pdf.print_background ?? true,
      scale: pdf.scale ?? 1,
      displayHeaderFooter: pdf.display_header_footer ?? false,
      headerTemplate: pdf.header_template || EMPTY_TEMPLATE,
      footerTemplate: pdf.footer_template || EMPTY_TEMPLATE,
      // the requested size wins over any @page size in the document
      preferCSSPageSize: false,
      // as puppeteer's default: a tagged PDF, no document outline
      generateTaggedPDF: true,
      generateDocumentOutline: false,
    });
  } catch (error) {
    // Chromium refuses geometry it cannot lay out (margins wider than the sheet, say)
    if (error instanceof Error && /invalid|content area is empty/i.test(error.message)) {
      throw new RenderError('invalid_input', 'invalid_page_layout', 'the page size and margins leave no printable area', { cause: error });
    }
    throw error;
  }
}
