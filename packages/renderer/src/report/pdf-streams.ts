// Stream objects of Chromium's printed PDF, found in its bytes: Chromium writes every object
// uncompressed and in place (no object streams), with each stream's length given directly, so
// an object is found by its "N 0 obj" line and its data cut by its /Length.

/** From just after "N 0 obj": the stream's dictionary and the start of its data. */
const STREAM_START = /^\s*<<([\s\S]{0,500}?)>>\s*stream\r?\n/;
/** A direct length: the number ends the entry (an indirect "/Length N 0 R" is not one). */
const DIRECT_LENGTH = /\/Length\s+(\d+)\s*(?=\/|$)/;

export interface PdfStream {
  /** the stream's dictionary, between its << and >> */
  dictionary: string;
  /** the stream's data, still encoded (see `dictionary`'s /Filter) */
  data: Buffer;
}

/**
 * Stream object `number` of the file (`text`: its bytes as latin1, of the same length), or null
 * when it is not laid out as expected.
 */
export function streamObject(pdf: Buffer, text: string, number: number): PdfStream | null {
  const marker = `${number} 0 obj`;
  let at = text.indexOf(marker);
  // "5 0 obj" must not be found inside "15 0 obj"
  while (at > 0 && !/\s/.test(text[at - 1]!)) at = text.indexOf(marker, at + 1);
  if (at === -1) return null;
  const object = STREAM_START.exec(text.slice(at + marker.length, at + marker.length + 600));
  if (!object) return null;
  const length = Number(DIRECT_LENGTH.exec(object[1]!)?.[1]);
  const start = at + marker.length + object[0].length;
  if (!Number.isSafeInteger(length) || start + length > pdf.length) return null;
  return { dictionary: object[1]!, data: pdf.subarray(start, start + length) };
}
