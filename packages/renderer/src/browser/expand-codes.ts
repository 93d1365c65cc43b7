// <svc-code> elements (docs/document-features.md, "Barcodes and QR codes"): after the content
// loads and before images are decoded and text is fitted, each element's attributes are read in
// the isolated world, the code is drawn with @svc/codes (SVG) on its drawing thread, off
// this process's event loop, and the SVG is put inside the element. No page script is involved, so it works with javascript.mode disabled and
// the document's own script cannot change what is drawn. An element the service cannot draw
// fails the render (invalid_input, invalid_code), and the failed job's report has an
// invalid_code problem naming the element, the attribute and the rule: a document never prints a
// broken code.
//
// Cost is bounded: at most MAX_CODES elements and MAX_CODE_VALUE_BYTES of values per render, each
// kind's own length cap (packages/codes) before any encoding, and CODE_DRAWING_MS of drawing per
// render. Drawing runs on one thread that draws one render's codes at a time: a large code costs
// the encoder up to seconds of CPU, and on this process's event loop it would stall every other
// job of the process meanwhile.
import type { CDPSession } from 'puppeteer-core';
import { RenderError } from '@svc/contracts';
import type { FindingsCollector } from '../report/findings-collector.ts';
import { codeKinds, drawCodesInThread, type CodeKind, type CodeOptions, type DrawCodeInput } from '@svc/codes';
import { SELECTOR_OF } from '../page/element-selector.ts';
import { callIsolated } from '../page/isolated-world.ts';

/** Elements drawn per render; a document with more fails. */
export const MAX_CODES = 100;
/** The values of all elements of a render together, in UTF-8 bytes. */
export const MAX_CODE_VALUE_BYTES = 16_384;
/**
 * A render's codes together are drawn within this time (ms, on the drawing thread, waiting for
 * it not counted): past it the drawing is stopped and the render fails as invalid_code, naming the
 * code being drawn. Values within the caps take well under a second each on an idle core.
 */
export const CODE_DRAWING_MS = 5_000;

/** Whether the document can hold an element at all: a render whose HTML never names it pays nothing. */
export const mayHoldCodes = (html: string): boolean => /svc-code/i.test(html);

interface WrittenCode {
  selector: string;
  attributes: Record<string, string | null>;
}

const ATTRIBUTES = ['kind', 'value', 'ecc', 'quiet-zone', 'size', 'height', 'human-readable'] as const;

/** Reads the elements' attributes (plain source, run in the isolated world). */
const READ_CODES = `(({ limit, names }) => {
  const elements = [...document.getElementsByTagName('svc-code')];
  // the report's way of naming an element (page/element-selector.ts)
  const selectorOf = ${SELECTOR_OF};
  return {
    total: elements.length,
    codes: elements.slice(0, limit).map((element) => ({
      selector: selectorOf(element),
      attributes: Object.fromEntries(names.map((name) => [name, element.getAttribute(name)])),
    })),
  };
})`;

/**
 * Puts each drawing inside its element, in place of whatever the element held. An inline element
 * becomes an inline block so that the drawing sits on the line without the text's descent below it.
 */
const PLACE_CODES = `(({ drawings }) => {
  const elements = [...document.getElementsByTagName('svc-code')];
  drawings.forEach((svg, index) => {
    const element = elements[index];
    if (!element) return;
    element.innerHTML = svg;
    const drawing = element.firstElementChild;
    if (drawing) drawing.style.display = 'block';
    if (getComputedStyle(element).display === 'inline') element.style.display = 'inline-block';
  });
})`;

/** The element's attribute that holds a field of CodeOptions or the value. */
const ATTRIBUTE_OF: Record<string, string> = { value: 'value', kind: 'kind', ecc: 'ecc', quietZone: 'quiet-zone', size: 'size', height: 'height', humanReadable: 'human-readable' };

/** Why an element, or the document, cannot be drawn: the report's invalid_code problem. */
class Refusal {
  constructor(
    readonly selector: string | null,
    readonly attribute: string | null,
    readonly message: string,
  ) {}
}

const refuse = (code: WrittenCode | null, attribute: string | null, message: string) => new Refusal(code?.selector ?? null, attribute, message);

function optionsOf(code: WrittenCode): CodeOptions {
  const { ecc, 'quiet-zone': quietZone, size, height, 'human-readable': humanReadable } = code.attributes;
  const options: CodeOptions = {};
  if (ecc !== null && ecc !== undefined) options.ecc = ecc.trim().toUpperCase() as CodeOptions['ecc'];
  if (quietZone !== null && quietZone !== undefined) {
    if (!/^\s*[0-9]{1,3}\s*$/.test(quietZone)) throw refuse(code, 'quiet-zone', 'must be a whole number of modules, 0 to 40');
    options.quietZone = Number(quietZone);
  }
  if (size !== null && size !== undefined) options.size = size.trim();
  if (height !== null && height !== undefined) options.height = height.trim();
  if (humanReadable !== null && humanReadable !== undefined) {
    const written = humanReadable.trim().toLowerCase();
    if (!['true', 'false', ''].includes(written)) throw refuse(code, 'human-readable', 'must be true or false');
    options.humanReadable = written !== 'false';
  }
  return options;
}

/**
 * Draws every <svc-code> element of the loaded document, or fails the render naming the first
 * that cannot be drawn, with an invalid_code problem in the report.
 */
export async function expandCodes(session: CDPSession, found: FindingsCollector): Promise<void> {
  const read = (await callIsolated(session, 'readCodes', READ_CODES, { limit: MAX_CODES, names: ATTRIBUTES })) as { total: number; codes: WrittenCode[] };
  if (read.total === 0) return;
  let drawings: string[];
  try {
    drawings = await drawAll(read);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const message = error.message.length > 300 ? `${error.message.slice(0, 299)}…` : error.message;
    found.problem({ type: 'invalid_code', selector: error.selector, attribute: error.attribute, message });
    const where = [error.selector && `<svc-code> ${error.selector}`, error.attribute].filter(Boolean).join(': ');
    throw new RenderError('invalid_input', 'invalid_code', where ? `${where}: ${message}` : message);
  }
  await callIsolated(session, 'placeCodes', PLACE_CODES, { drawings });
}

function requestOf(code: WrittenCode): DrawCodeInput {
  const kind = (code.attributes.kind ?? '').trim().toLowerCase();
  if (!codeKinds.includes(kind as CodeKind)) throw refuse(code, 'kind', `must be one of ${codeKinds.join(', ')}`);
  return { kind: kind as CodeKind, text: code.attributes.value ?? '', options: optionsOf(code) };
}

async function drawAll(read: { total: number; codes: WrittenCode[] }): Promise<string[]> {
  if (read.total > MAX_CODES) throw refuse(null, null, `the document has ${read.total} <svc-code> elements, at most ${MAX_CODES} are drawn`);
  const bytes = read.codes.reduce((sum, code) => sum + Buffer.byteLength(code.attributes.value ?? ''), 0);
  if (bytes > MAX_CODE_VALUE_BYTES) throw refuse(null, null, `the <svc-code> values are ${bytes} bytes together, at most ${MAX_CODE_VALUE_BYTES}`);
  // elements are refused in document order: those before a wrong kind or attribute are drawn first
  const requests: DrawCodeInput[] = [];
  let refusal: Refusal | null = null;
  for (const code of read.codes) {
    try {
      requests.push(requestOf(code));
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      refusal = error;
      break;
    }
  }
  if (requests.length === 0 && refusal !== null) throw refusal;
  const result = await drawCodesInThread(requests, { timeoutMs: CODE_DRAWING_MS });
  if (result.outcome === 'refused') {
    const { error } = result;
    throw refuse(read.codes[result.index]!, ATTRIBUTE_OF[error.field] ?? `value (${error.field})`, error.message.slice(error.field.length + 2));
  }
  if (result.outcome === 'timed_out') {
    throw refuse(read.codes[result.index]!, 'value', `too complex: the document's codes up to this one took longer than ${CODE_DRAWING_MS / 1000} s to draw (fewer codes or shorter values)`);
  }
  if (refusal !== null) throw refusal;
  return result.drawings;
}
