// PDF capture of a loaded sandbox page: canvas page selection, then Chromium's printer with
// the geometry and options of the render request rules.
import type { CDPSession, Page } from 'puppeteer-core';
import { type PdfOptions, RenderError } from '@svc/contracts';
import { pdfPasswordBytes, pdfScale, utf8Bytes } from '@svc/rules';
import { arrangeForPrint } from '../canvas/select-canvas-pages.ts';
import { printToPdf } from '../browser/devtools-pipe.ts';
import { asPaginated, type PageQuestion } from '../browser/load-content.ts';
import type { PagedLayout } from '../browser/paged-media.ts';
import { resolveGeometry, type PageGeometry } from './page-size.ts';

/**
 * The document asks for bookmarks from its headings with <meta name="svc-pdf-outline"
 * content="headings">. Read from the live document (plain source: see select-canvas-pages.ts).
 */
const ASKS_FOR_OUTLINE = `Array.from(document.querySelectorAll('meta[name="svc-pdf-outline" i]'))
  .some((meta) => (meta.getAttribute('content') || '').trim().toLowerCase() === 'headings')`;

/**
 * Loads the web fonts that @page rules (page-margin boxes among them) name. Chromium lays margin
 * boxes out only while printing, so a face used nowhere else has not been asked for by then and
 * the printer would fall back to a system font. Faces that fail to load are left to that fallback.
 */
const LOAD_PAGE_FONTS = `(async () => {
  const pageRules = [];
  const collect = (rules) => {
    for (const rule of rules) {
      if (rule.type === CSSRule.PAGE_RULE) pageRules.push(rule.cssText);
      else if (rule.cssRules) collect(rule.cssRules);
    }
  };
  for (const sheet of document.styleSheets) {
    try { collect(sheet.cssRules); } catch { /* a sheet whose rules cannot be read */ }
  }
  if (pageRules.length === 0) return;
  const text = pageRules.join(' ').toLowerCase();
  const named = (face) => text.includes(face.family.replace(/^["']|["']$/g, '').toLowerCase());
  await Promise.all(Array.from(document.fonts).filter((face) => face.status === 'unloaded' && named(face)).map((face) => face.load().catch(() => null)));
})()`;

/** Both questions before printing in one evaluation: whether the document asks for an outline, once the @page fonts loaded. */
const BEFORE_PRINT_FUNCTION = `async () => {
  const outline = ${ASKS_FOR_OUTLINE};
  await ${LOAD_PAGE_FONTS};
  return outline;
}`;
const BEFORE_PRINT = `(${BEFORE_PRINT_FUNCTION})()`;

/** The questions before printing, for the load to answer when it can (a document without script: no round trip of their own). */
export const beforePrint: PageQuestion = { name: 'beforePrint', source: BEFORE_PRINT_FUNCTION, paginates: true };

/** Chromium draws its default date/title/URL header when a template is empty; the render request rules say empty. */
const EMPTY_TEMPLATE = '<span></span>';

/**
 * How a document that opts in to paged media (browser/paged-media.ts) is printed. Laid out into
 * pages by the engine: each of its pages on a sheet of its own CSS page size, edge to edge. Its
 * @page rules made the pages, their margins and their headers and footers already, so the
 * request's paper size, orientation, margins, scale and header/footer templates do not apply
 * (as the paper size of any document's @page size would, had the printer let it win);
 * print_background and the outline still do. Left to Chromium's printer (it needs nothing only
 * the engine does): printed with the engine's defaults (US Letter, 1 in margins), the document's
 * @page size and margins winning where it sets them, so that both ways print the same pages.
 */
function pagedPrint(pdf: PdfOptions, outline: boolean, layout: PagedLayout) {
  const margin = layout.engine ? 0 : ENGINE_DEFAULT_PAGE.marginIn;
  return {
    ...(layout.engine ? {} : { paperWidth: ENGINE_DEFAULT_PAGE.widthIn, paperHeight: ENGINE_DEFAULT_PAGE.heightIn }),
    marginTop: margin,
    marginRight: margin,
    marginBottom: margin,
    marginLeft: margin,
    printBackground: pdf.print_background ?? true,
    displayHeaderFooter: false,
    preferCSSPageSize: true,
    generateTaggedPDF: true,
    generateDocumentOutline: outline,
  };
}

/** The page Paged.js lays out where a document's @page rules set no size or margin (its base style sheet). */
const ENGINE_DEFAULT_PAGE = { widthIn: 8.5, heightIn: 11, marginIn: 1 };

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
 * costs a read per chunk and a close. `answered`: beforePrint's answer when the load asked it.
 */
export async function capturePdf(
  page: Page,
  session: CDPSession,
  pdf: PdfOptions,
  geometry: PageGeometry,
  pages: readonly string[] | undefined,
  answered?: unknown,
): Promise<Uint8Array> {
  if (pages) await arrangeForPrint(page, pages);
  const paginated = asPaginated(answered);
  const outline = ((paginated ? paginated.answer : answered) ?? (await page.evaluate(BEFORE_PRINT))) === true;
  try {
    return await printToPdf(page, session, paginated ? pagedPrint(pdf, outline, paginated.paginated) : {
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
      // The requested size wins over any @page size in the document (Chromium centres a smaller
      // CSS page on the sheet). Margins are the other way round: Chromium lays each side out with
      // the document's @page margin where it sets one and the request's margin where it does not,
      // which keeps the page-margin boxes (@top-center, @bottom-center ...) of a document that
      // sizes its own margins (docs/document-features.md, Headers and footers).
      preferCSSPageSize: false,
      // a tagged PDF always; bookmarks from the headings when the document asks for them
      generateTaggedPDF: true,
      generateDocumentOutline: outline,
    });
  } catch (error) {
    // Chromium refuses geometry it cannot lay out (margins wider than the sheet, say)
    if (error instanceof Error && /invalid|content area is empty/i.test(error.message)) {
      throw new RenderError('invalid_input', 'invalid_page_layout', 'the page size and margins leave no printable area', { cause: error });
    }
    throw error;
  }
}
