// Size limits of the render request rules, the saved template rules and the contract's limits, in UTF-8 bytes unless the name says otherwise.

/** Raw HTML of a render. */
export const maxRawHtmlBytes = 5_242_880;
/** A template source: stateless, saved, a saved size's source, preview and adapt. */
export const maxTemplateSourceBytes = 1_048_576;
/** Template data, measured as canonical (key-sorted) JSON. */
export const maxTemplateDataBytes = 1_048_576;
/** Evaluated template output (characters). */
export const maxTemplateOutputChars = 5_242_880;
/** FieldDetail.field: "data" and a JSON Pointer cut at this many bytes (the contract's error rules). */
export const maxDataPointerBytes = 256;
/** Canvas pages selected by a render. */
export const maxSelectedPages = 100;
/** A canvas page id (data-svc-page): a letter, then letters, digits, underscore, hyphen; 1 to 64 characters. */
export const pageIdPattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const utf8Bytes = (text: string): number => new TextEncoder().encode(text).byteLength;

/** "data" and a JSON Pointer to `path`, cut at 256 UTF-8 bytes without splitting a character. */
export function dataField(path: readonly string[]): string {
  const pointer = path.map((part) => `/${part.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
  return `data${cutPointer(pointer)}`;
}

/** A JSON Pointer cut at 256 UTF-8 bytes, on a character boundary. */
export function cutPointer(pointer: string): string {
  if (utf8Bytes(pointer) <= maxDataPointerBytes) return pointer;
  let cut = '';
  let bytes = 0;
  for (const char of pointer) {
    const size = utf8Bytes(char);
    if (bytes + size > maxDataPointerBytes) break;
    cut += char;
    bytes += size;
  }
  return cut;
}

/**
 * Adapt marks every element of a canvas source with this attribute (its position in document
 * order) before the browser lays the source out, so measurements map back to source elements.
 */
export const canvasLayoutMarker = 'data-svc-adapt';
/** Adapt never scales text in a positioned box below this size (CSS px), unless it was smaller. */
export const minAdaptedFontPx = 12;
