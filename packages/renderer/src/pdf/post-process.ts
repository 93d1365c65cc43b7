// Everything done to Chromium's PDF after printing: page boxes and metadata first, encryption
// last (an encrypted file can no longer be edited without the password).
import type { PdfOptions } from '../types.ts';
import { encryptPdf } from './encrypt.ts';
import { finishDocument } from './metadata.ts';
import type { PageGeometry } from './page-size.ts';

const POINTS_PER_INCH = 72;

export async function postProcessPdf(pdf: Uint8Array, options: PdfOptions, geometry: PageGeometry): Promise<{ bytes: Buffer; pageCount: number }> {
  const portrait = { width: geometry.widthIn * POINTS_PER_INCH, height: geometry.heightIn * POINTS_PER_INCH };
  const size = options.landscape ? { width: portrait.height, height: portrait.width } : portrait;
  const { bytes, pageCount } = await finishDocument(pdf, size, { title: options.title, author: options.author, subject: options.subject });
  const finished = options.password === undefined ? bytes : await encryptPdf(bytes, options.password);
  return { bytes: Buffer.from(finished.buffer, finished.byteOffset, finished.byteLength), pageCount };
}
