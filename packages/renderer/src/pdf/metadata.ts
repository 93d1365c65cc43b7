// The finishing touches pdf-lib makes to Chromium's PDF: exact page boxes and the Document
// Info dictionary. Also reports the page count.
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';

export interface PdfMetadata {
  title?: string;
  author?: string;
  subject?: string;
}

export interface PageSizePt {
  width: number;
  height: number;
}

/** Chromium rounds paper sizes to its print raster; up to this much is rounding, not layout. */
const ROUNDING_SLACK_PT = 2;

export interface PageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The exact box for a page Chromium printed at a rounded `size`, or null when its box is not a
 * rounding of it. Chromium draws from the top-left corner (its content is flipped about the top
 * edge), so the sub-point excess is trimmed from the right and bottom, where nothing is anchored.
 */
export function trimmedBox(box: PageBox, size: PageSizePt): PageBox | null {
  const rounding = Math.abs(box.width - size.width) < ROUNDING_SLACK_PT && Math.abs(box.height - size.height) < ROUNDING_SLACK_PT;
  return rounding ? { x: box.x, y: box.y + box.height - size.height, width: size.width, height: size.height } : null;
}

export async function finishDocument(pdf: Uint8Array, size: PageSizePt, metadata: PdfMetadata): Promise<{ bytes: Uint8Array; pageCount: number }> {
  // updateMetadata: false keeps Chromium's Producer and dates instead of pdf-lib's own
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  for (const page of document.getPages()) {
    const box = trimmedBox(page.getMediaBox(), size);
    if (box) page.setMediaBox(box.x, box.y, box.width, box.height);
  }
  const { title, author, subject } = metadata;
  if (title !== undefined) document.setTitle(title);
  else if (document.getTitle() === 'about:blank') removeInfoEntry(document, 'Title');
  if (author !== undefined) document.setAuthor(author);
  if (subject !== undefined) document.setSubject(subject);
  // pdf-lib yields to the event loop every few objects while loading and saving, except when it
  // packs object streams: that step blocked for over a second on a 1,000-page document, which
  // would stall every other render in this process. Chromium's own layout is kept instead.
  return { bytes: await document.save({ useObjectStreams: false }), pageCount: document.getPageCount() };
}

/** Chromium titles an untitled document with its URL, which here is only about:blank. */
function removeInfoEntry(document: PDFDocument, key: string): void {
  const info = document.context.lookup(document.context.trailerInfo.Info);
  if (info instanceof PDFDict) info.delete(PDFName.of(key));
}
