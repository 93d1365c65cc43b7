// The drawings made lately on this thread, kept by what was asked (kind, value and options): the
// same code drawn again, as a template's preview is evaluated on each edit or a document is
// printed again, is answered without encoding. drawCode is pure, so a kept drawing is the one it
// would draw anew, byte for byte. Refused input is never kept: it is checked again each time.
// Each thread that draws (a sandbox worker, the drawing thread) has a cache of its own.
import { drawCode as drawAnew } from './draw-code.mjs';

/** At most this many drawings are kept, the least recently used leaving first. */
const MAX_DRAWINGS = 300;
/** And at most this many characters of keys and drawings together (4 MiB: a drawing is ASCII, a byte a character). */
const MAX_CHARS = 4 * 1024 * 1024;
/** A drawing larger than this share of the budget is not kept: it would push out many small ones. */
const MAX_SHARE = 4;

/** The options drawCode reads; any other field changes nothing it draws. */
const OPTION_NAMES = /** @type {const} */ (['ecc', 'quietZone', 'size', 'height', 'humanReadable']);

/** @type {Map<string, string>} in order of use, the least recent first */
const drawings = new Map();
let chars = 0;

/**
 * drawCode's drawing, kept for the next time the same code is asked for.
 * @param {import('./index.mjs').DrawCodeInput} input
 * @returns {string}
 */
export function drawCode(input) {
  const key = keyOf(input);
  if (key === null) return drawAnew(input);
  const kept = drawings.get(key);
  if (kept !== undefined) {
    drawings.delete(key);
    drawings.set(key, kept);
    return kept;
  }
  const svg = drawAnew(input);
  const size = key.length + svg.length;
  if (size > MAX_CHARS / MAX_SHARE) return svg;
  drawings.set(key, svg);
  chars += size;
  for (const [oldest, drawing] of drawings) {
    if (drawings.size <= MAX_DRAWINGS && chars <= MAX_CHARS) break;
    drawings.delete(oldest);
    chars -= oldest.length + drawing.length;
  }
  return svg;
}

/**
 * The key of a request: each field with its type, so that 4 and '4', or a missing option and
 * null, are different requests (the second of each may be refused). A request of other types is
 * drawn without the cache.
 * @param {import('./index.mjs').DrawCodeInput} input
 * @returns {string | null}
 */
function keyOf(input) {
  if (typeof input !== 'object' || input === null) return null;
  const { kind, text, options = {} } = input;
  if (typeof kind !== 'string' || typeof text !== 'string' || typeof options !== 'object' || options === null) return null;
  const fields = [kind, text];
  for (const name of OPTION_NAMES) {
    const value = options[name];
    if (value === undefined) fields.push('-');
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields.push(`${(typeof value)[0]}${String(value)}`);
    else return null;
  }
  return JSON.stringify(fields);
}

/** How many drawings are kept and their characters (for tests). */
export function drawingCacheSize() {
  return { drawings: drawings.size, chars };
}
