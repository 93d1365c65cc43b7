// Canvas pages are elements carrying data-svc-page="ID" (and optionally data-svc-page-name).
// findCanvasPages reads them from the HTML text alone, so request admission can refuse unknown
// page ids without a browser. It follows the HTML tokenizer closely enough to agree with the
// DOM: comments, raw-text elements (script, style, textarea ...) and <template> contents hold
// no elements; the first of repeated attributes wins; character references are decoded.
export interface CanvasPage {
  id: string;
  name: string | null;
}

const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'textarea', 'title']);
const NAMED_REFERENCES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
]);

export function findCanvasPages(html: string): CanvasPage[] {
  const pages: CanvasPage[] = [];
  let templateDepth = 0;
  let index = 0;
  while (index < html.length) {
    const open = html.indexOf('<', index);
    if (open === -1) break;
    if (html.startsWith('<!--', open)) {
      index = commentEnd(html, open);
      continue;
    }
    const next = html[open + 1] ?? '';
    if (next === '!' || next === '?') {
      index = endOf(html, '>', open);
      continue;
    }
    if (next === '/') {
      const tag = readTag(html, open + 2);
      if (tag && tag.name === 'template' && templateDepth > 0) templateDepth -= 1;
      index = tag ? tag.end : open + 2;
      continue;
    }
    const tag = readTag(html, open + 1);
    if (!tag) {
      index = open + 1;
      continue;
    }
    index = tag.end;
    const id = tag.attributes.get('data-svc-page');
    if (id !== undefined && templateDepth === 0) pages.push({ id, name: tag.attributes.get('data-svc-page-name') ?? null });
    if (tag.name === 'template') templateDepth += 1;
    else if (tag.name === 'plaintext') break;
    else if (RAW_TEXT.has(tag.name)) index = rawTextEnd(html, tag.name, index);
  }
  return pages;
}

interface Tag {
  name: string;
  attributes: Map<string, string>;
  end: number;
}

/** Reads a tag starting at its name; null when `<` does not start a tag. */
function readTag(html: string, start: number): Tag | null {
  if (!/[A-Za-z]/.test(html[start] ?? '')) return null;
  let index = start;
  while (index < html.length && !/[\s/>]/.test(html[index]!)) index += 1;
  const name = html.slice(start, index).toLowerCase();
  const attributes = new Map<string, string>();
  for (;;) {
    while (index < html.length && /[\s/]/.test(html[index]!)) index += 1;
    if (index >= html.length) return { name, attributes, end: index };
    if (html[index] === '>') return { name, attributes, end: index + 1 };
    const nameStart = index;
    index += 1; // an attribute name may begin with '='
    while (index < html.length && !/[\s/>=]/.test(html[index]!)) index += 1;
    const attribute = html.slice(nameStart, index).toLowerCase();
    let value = '';
    let cursor = index;
    while (cursor < html.length && /\s/.test(html[cursor]!)) cursor += 1;
    if (html[cursor] === '=') {
      cursor += 1;
      while (cursor < html.length && /\s/.test(html[cursor]!)) cursor += 1;
      const quote = html[cursor];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, cursor + 1);
        const stop = close === -1 ? html.length : close;
        value = html.slice(cursor + 1, stop);
        index = stop + 1;
      } else {
        const valueStart = cursor;
        while (cursor < html.length && !/[\s>]/.test(html[cursor]!)) cursor += 1;
        value = html.slice(valueStart, cursor);
        index = cursor;
      }
    }
    if (!attributes.has(attribute)) attributes.set(attribute, decodeReferences(value));
  }
}

function commentEnd(html: string, open: number): number {
  // "<!-->" and "<!--->" are complete (empty) comments
  if (html.startsWith('<!-->', open)) return open + 5;
  if (html.startsWith('<!--->', open)) return open + 6;
  const close = html.indexOf('-->', open + 4);
  return close === -1 ? html.length : close + 3;
}

function rawTextEnd(html: string, name: string, from: number): number {
  const pattern = new RegExp(`</${name}[\\s/>]`, 'gi');
  pattern.lastIndex = from;
  const match = pattern.exec(html);
  return match ? match.index : html.length;
}

function endOf(html: string, text: string, from: number): number {
  const found = html.indexOf(text, from);
  return found === -1 ? html.length : found + text.length;
}

function decodeReferences(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED_REFERENCES.get(body.toLowerCase()) ?? whole;
  });
}
