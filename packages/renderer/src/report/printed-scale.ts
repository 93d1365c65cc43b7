// Whether a printed PDF's content was shrunk to fit its page, read from the file. Chromium lays
// a document out at the printable width and, when anything reaches past it, scales the whole
// document down to fit (up to a bound): the scale it drew with is the first page's content
// transform. Unshrunk, that is 0.75 (CSS pixels to points) times the requested pdf.scale.
import { constants, inflateSync } from 'node:zlib';
import { streamObject } from './pdf-streams.ts';

const PAGE_TYPE = /\/Type\s*\/Page(?![A-Za-z])/;
const CONTENTS = /\/Contents\s+(\d+)\s+0\s+R/;
const MATRIX = /(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+cm\b/g;
/** Characters of the first page's content read for its transforms. */
const PREFIX_CHARS = 600;

/** The first page's content stream, inflated; null when the file is not laid out as expected. */
function firstPageContent(pdf: Buffer, text: string): string | null {
  // the first page's dictionary: from the object holding the first /Type /Page to its end
  const page = PAGE_TYPE.exec(text);
  if (!page) return null;
  const end = text.indexOf('endobj', page.index);
  const contents = CONTENTS.exec(text.slice(text.lastIndexOf(' obj', page.index), end === -1 ? page.index + 2000 : end))?.[1];
  if (!contents) return null;
  const stream = streamObject(pdf, text, Number(contents));
  if (!stream) return null;
  const body = stream.data;
  try {
    // the transforms open the stream: its first compressed bytes hold them
    const head = /\/FlateDecode/.test(stream.dictionary) ? inflateSync(body.subarray(0, PREFIX_CHARS * 4), { finishFlush: constants.Z_SYNC_FLUSH }) : body;
    return head.toString('latin1', 0, PREFIX_CHARS);
  } catch {
    return null;
  }
}

/**
 * The scale the first page's content was drawn with, over the scale it would have without
 * shrinking: 1 when the document fit the page, below 1 when Chromium shrank it (content reached
 * past the printable width). Null when it cannot be told from the file.
 */
export function printedFit(pdf: Uint8Array, text: string, requestedScale: number): number | null {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const content = firstPageContent(bytes, text);
  if (!content) return null;
  const scales = [...content.matchAll(MATRIX)].map((match) => Math.abs(Number(match[1])));
  if (scales.length < 2) return null;
  return (scales[0]! * scales[1]!) / (0.75 * requestedScale);
}
