// Everything done to Chromium's PDF after printing: page boxes and metadata first, then the
// provenance (appended, so nothing before it moves), encryption last (an encrypted file can no
// longer be edited without the password).
import type { PdfOptions, RenderProvenance } from '@svc/contracts';
import { encryptPdf } from './encrypt.ts';
import { finishDocument } from './metadata.ts';
import type { PageGeometry } from './page-size.ts';
import { appendProvenance } from './provenance.ts';
import { trimPageBoxesInPlace } from './trim-in-place.ts';

const POINTS_PER_INCH = 72;

export async function postProcessPdf(
  pdf: Uint8Array,
  options: PdfOptions,
  geometry: PageGeometry,
  provenance?: RenderProvenance,
): Promise<{ bytes: Buffer; pageCount: number }> {
  const portrait = { width: geometry.widthIn * POINTS_PER_INCH, height: geometry.heightIn * POINTS_PER_INCH };
  const size = options.landscape ? { width: portrait.height, height: portrait.width } : portrait;
  const metadata = { title: options.title, author: options.author, subject: options.subject };
  const printed = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  // without metadata to write, only the page boxes change: edited in place when Chromium's layout allows
  const trimmed = Object.values(metadata).every((value) => value === undefined) ? trimPageBoxesInPlace(printed, size) : null;
  const boxed = trimmed ? { bytes: printed, pageCount: trimmed.pageCount } : await finishDocument(pdf, size, metadata);
  const { pageCount } = boxed;
  const withBoxes = Buffer.from(boxed.bytes.buffer, boxed.bytes.byteOffset, boxed.bytes.byteLength);
  const bytes = provenance ? await appendProvenance(withBoxes, provenance) : withBoxes;
  const finished = options.password === undefined ? bytes : await encryptPdf(bytes, options.password);
  return { bytes: Buffer.from(finished.buffer, finished.byteOffset, finished.byteLength), pageCount };
}
