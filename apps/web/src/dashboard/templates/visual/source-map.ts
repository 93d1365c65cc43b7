// The visual editor's view of a template source: its elements with their places in the text, so
// a layer picked on the canvas maps back to its tag and every change is a small text edit. The
// source stays the one truth: the canvas is rendered from it, and edits are written into it.

export interface SourceElement {
  /** the element's ordinal among the source's start tags: the key a rendered layer carries */
  index: number;
  name: string;
  /** offsets of the start tag: `<` and just after `>` */
  tagStart: number;
  tagEnd: number;
  /** offsets of the end tag, when the element has one: `</` and just after `>` */
  closeStart: number | null;
  closeEnd: number | null;
  /** the data-svc-page id, for canvas pages */
  pageId: string | null;
}

export interface TextEdit {
  from: number;
  to: number;
  insert: string;
}

interface Attribute {
  name: string;
  nameStart: number;
  /** the value's range inside the quotes (or the bare value); null for an attribute without one */
  valueStart: number | null;
  valueEnd: number | null;
  quote: '"' | "'" | '';
}

/** The attribute a rendered element carries to name its source element. */
export const layerAttribute = 'data-svc-layer';

const voidElements = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const rawTextElements = new Set(['script', 'style', 'textarea', 'title']);
const templateOpeners: Record<string, string> = { '{{': '}}', '{%': '%}', '{#': '#}' };

/** Where a nunjucks block starting at `at` ends (just after its closer), or null when none starts there. */
function templateBlockEnd(source: string, at: number): number | null {
  const closer = templateOpeners[source.slice(at, at + 2)];
  if (!closer) return null;
  const end = source.indexOf(closer, at + 2);
  return end === -1 ? source.length : end + 2;
}

/** The attributes of the start tag opening at `tagStart`, and the offset just after its `>`. */
function readStartTag(source: string, tagStart: number): { name: string; attributes: Attribute[]; tagEnd: number; selfClosing: boolean } {
  const nameMatch = /^<([A-Za-z][\w:-]*)/.exec(source.slice(tagStart, tagStart + 80))!;
  const attributes: Attribute[] = [];
  let at = tagStart + nameMatch[0].length;
  while (at < source.length) {
    const char = source[at]!;
    if (char === '>') return { name: nameMatch[1]!.toLowerCase(), attributes, tagEnd: at + 1, selfClosing: source[at - 1] === '/' };
    const block = templateBlockEnd(source, at);
    if (block !== null) {
      at = block;
      continue;
    }
    if (/[\s/]/.test(char)) {
      at += 1;
      continue;
    }
    const name = /^[^\s=>/{]+/.exec(source.slice(at))?.[0] ?? char;
    const attribute: Attribute = { name: name.toLowerCase(), nameStart: at, valueStart: null, valueEnd: null, quote: '' };
    at += name.length;
    const equals = /^\s*=\s*/.exec(source.slice(at));
    if (equals) {
      at += equals[0].length;
      const quote = source[at];
      if (quote === '"' || quote === "'") {
        const close = source.indexOf(quote, at + 1);
        attribute.quote = quote;
        attribute.valueStart = at + 1;
        attribute.valueEnd = close === -1 ? source.length : close;
        at = attribute.valueEnd + 1;
      } else {
        const bare = /^[^\s>]*/.exec(source.slice(at))![0];
        attribute.valueStart = at;
        attribute.valueEnd = at + bare.length;
        at += bare.length;
      }
    }
    attributes.push(attribute);
  }
  return { name: nameMatch[1]!.toLowerCase(), attributes, tagEnd: source.length, selfClosing: false };
}

/** Every element of a source in document order, skipping comments, nunjucks blocks and raw text. */
export function sourceElements(source: string): SourceElement[] {
  const elements: SourceElement[] = [];
  const open: SourceElement[] = [];
  let at = 0;
  while (at < source.length) {
    const next = source.indexOf('<', at);
    const brace = source.indexOf('{', at);
    if (brace !== -1 && (next === -1 || brace < next)) {
      at = templateBlockEnd(source, brace) ?? brace + 1;
      continue;
    }
    if (next === -1) break;
    at = next;
    if (source.startsWith('<!--', at)) {
      const end = source.indexOf('-->', at + 4);
      at = end === -1 ? source.length : end + 3;
    } else if (/^<\/[A-Za-z]/.test(source.slice(at, at + 3))) {
      const name = /^<\/([A-Za-z][\w:-]*)/.exec(source.slice(at, at + 80))![1]!.toLowerCase();
      const end = source.indexOf('>', at);
      const closeEnd = end === -1 ? source.length : end + 1;
      const depth = open.map((element) => element.name).lastIndexOf(name);
      if (depth !== -1) {
        const element = open[depth]!;
        element.closeStart = at;
        element.closeEnd = closeEnd;
        open.length = depth;
      }
      at = closeEnd;
    } else if (/^<[A-Za-z]/.test(source.slice(at, at + 2))) {
      const tag = readStartTag(source, at);
      const page = tag.attributes.find((attribute) => attribute.name === 'data-svc-page' && attribute.valueStart !== null);
      const element: SourceElement = {
        index: elements.length,
        name: tag.name,
        tagStart: at,
        tagEnd: tag.tagEnd,
        closeStart: null,
        closeEnd: null,
        pageId: page ? source.slice(page.valueStart!, page.valueEnd!) : null,
      };
      elements.push(element);
      at = tag.tagEnd;
      if (rawTextElements.has(tag.name)) {
        const close = source.toLowerCase().indexOf(`</${tag.name}`, at);
        at = close === -1 ? source.length : close;
      }
      if (!voidElements.has(tag.name) && !tag.selfClosing) open.push(element);
    } else {
      at += 1;
    }
  }
  return elements;
}

/** The elements inside a canvas page (the page itself first). */
export function pageElements(elements: SourceElement[], pageId: string): SourceElement[] {
  const page = elements.find((element) => element.pageId === pageId);
  if (!page) return [];
  const end = page.closeStart ?? Number.POSITIVE_INFINITY;
  return elements.filter((element) => element.tagStart >= page.tagStart && element.tagStart < end);
}

/** Applies edits given against the same text, whatever their order. */
export function applyEdits(source: string, edits: TextEdit[]): string {
  let result = source;
  for (const edit of [...edits].sort((a, b) => b.from - a.from)) result = result.slice(0, edit.from) + edit.insert + result.slice(edit.to);
  return result;
}

/**
 * The source with every element of its canvas pages marked with its index, for the visual
 * view's render only: a rendered layer names its tag even inside loops and conditions.
 */
export function instrumentSource(source: string): string {
  const elements = sourceElements(source);
  const pages = elements.filter((element) => element.pageId !== null);
  const marked = new Set(pages.flatMap((page) => pageElements(elements, page.pageId!)));
  return applyEdits(
    source,
    [...marked].map((element) => {
      const after = element.tagStart + 1 + element.name.length;
      return { from: after, to: after, insert: ` ${layerAttribute}="${element.index}"` };
    }),
  );
}

function attributesOf(source: string, element: SourceElement): Attribute[] {
  return readStartTag(source, element.tagStart).attributes;
}

/** An attribute's value as written in the source, or null when the element has none. */
export function attributeValue(source: string, element: SourceElement, name: string): string | null {
  const found = attributesOf(source, element).find((attribute) => attribute.name === name);
  if (!found) return null;
  return found.valueStart === null ? '' : source.slice(found.valueStart, found.valueEnd!);
}

/** Sets an attribute's value: in place when it exists, else added at the end of the start tag. */
export function setAttributeEdit(source: string, element: SourceElement, name: string, value: string): TextEdit {
  const found = attributesOf(source, element).find((attribute) => attribute.name === name);
  if (found && found.valueStart !== null && found.quote === '"') return { from: found.valueStart, to: found.valueEnd!, insert: value.replaceAll('"', '&quot;') };
  if (found) {
    const end = found.valueEnd === null ? found.nameStart + found.name.length : found.valueEnd + (found.quote ? 1 : 0);
    return { from: found.nameStart, to: end, insert: `${name}="${value.replaceAll('"', '&quot;')}"` };
  }
  const close = source[element.tagEnd - 2] === '/' ? element.tagEnd - 2 : element.tagEnd - 1;
  const before = /\s/.test(source[close - 1] ?? '') ? '' : ' ';
  return { from: close, to: close, insert: `${before}${name}="${value.replaceAll('"', '&quot;')}"` };
}

interface Declaration {
  property: string;
  /** the declaration's range in the style value, its trailing semicolon included */
  start: number;
  end: number;
  valueStart: number;
  valueEnd: number;
}

/** The declarations of a style value, with `;` inside nunjucks blocks, quotes and brackets left alone. */
function declarations(style: string): Declaration[] {
  const found: Declaration[] = [];
  let start = 0;
  let depth = 0;
  let quote: string | null = null;
  const finish = (end: number, next: number) => {
    const text = style.slice(start, end);
    const colon = text.indexOf(':');
    if (colon !== -1 && text.trim() !== '') {
      const leading = text.slice(colon + 1).length - text.slice(colon + 1).trimStart().length;
      const value = text.slice(colon + 1).trim();
      const valueStart = start + colon + 1 + leading;
      found.push({ property: text.slice(0, colon).trim().toLowerCase(), start, end: next, valueStart, valueEnd: valueStart + value.length });
    }
    start = next;
  };
  for (let at = 0; at < style.length; at += 1) {
    const char = style[at]!;
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '(' || char === '{') {
      depth += 1;
    } else if (char === ')' || char === '}') {
      depth = Math.max(0, depth - 1);
    } else if (char === ';' && depth === 0) {
      finish(at, at + 1);
    }
  }
  finish(style.length, style.length);
  return found;
}

/** A declared property's value in the element's style attribute, or null. */
export function styleValue(source: string, element: SourceElement, property: string): string | null {
  const style = attributeValue(source, element, 'style');
  if (style === null) return null;
  const found = declarations(style).filter((declaration) => declaration.property === property).pop();
  return found ? style.slice(found.valueStart, found.valueEnd) : null;
}

/**
 * The edit that sets (or, with null, removes) properties of the element's style attribute,
 * touching only those declarations: the rest of the attribute stays as written.
 */
export function setStyleEdit(source: string, element: SourceElement, properties: Record<string, string | null>): TextEdit | null {
  const style = attributeValue(source, element, 'style');
  const quoteSafe = (value: string) => value.replaceAll('"', "'");
  if (style === null) {
    const added = Object.entries(properties).filter((entry): entry is [string, string] => entry[1] !== null);
    if (added.length === 0) return null;
    return setAttributeEdit(source, element, 'style', added.map(([property, value]) => `${property}: ${quoteSafe(value)}`).join('; '));
  }
  const present = declarations(style);
  const edits: TextEdit[] = [];
  const appended: string[] = [];
  for (const [property, value] of Object.entries(properties)) {
    const matches = present.filter((declaration) => declaration.property === property);
    if (value === null) {
      for (const match of matches) edits.push({ from: match.start, to: match.end, insert: '' });
    } else if (matches.length > 0) {
      const last = matches[matches.length - 1]!;
      for (const match of matches.slice(0, -1)) edits.push({ from: match.start, to: match.end, insert: '' });
      edits.push({ from: last.valueStart, to: last.valueEnd, insert: quoteSafe(value) });
    } else {
      appended.push(`${property}: ${quoteSafe(value)}`);
    }
  }
  if (edits.length === 0 && appended.length === 0) return null;
  const kept = applyEdits(style, edits);
  if (appended.length === 0) return setAttributeEdit(source, element, 'style', kept);
  const trimmed = kept.trimEnd();
  const separator = trimmed === '' ? '' : trimmed.endsWith(';') ? ' ' : '; ';
  return setAttributeEdit(source, element, 'style', `${trimmed}${separator}${appended.join('; ')}`);
}

/** The element's content as written, when it holds text only (no child elements); else null. */
export function textContentOf(source: string, element: SourceElement): string | null {
  if (element.closeStart === null) return null;
  const inner = source.slice(element.tagEnd, element.closeStart);
  const hasChild = sourceElements(inner).length > 0;
  return hasChild ? null : inner;
}

/** The edit that replaces a text element's content (a `<` typed as text stays text). */
export function setTextEdit(element: SourceElement, text: string): TextEdit | null {
  if (element.closeStart === null) return null;
  return { from: element.tagEnd, to: element.closeStart, insert: text.replaceAll('<', '&lt;') };
}

/** The nunjucks expression that outputs a data field (a dotted path of plain names). */
export function fieldExpression(path: string): string {
  return `{{ ${path} }}`;
}

/**
 * The @font-face a brand kit font needs to load in renders (`brand.fonts[index].src`), inserted
 * before `</head>` (or at the start of the source); null when the source already declares a
 * face of that family.
 */
export function brandFontFaceEdit(source: string, family: string, index: number): TextEdit | null {
  const name = family.replaceAll('"', '');
  const declared = /@font-face\s*{[^}]*}/gi;
  for (const rule of source.matchAll(declared)) {
    const named = /font-family\s*:\s*["']?([^;"'}]+)/i.exec(rule[0])?.[1]?.trim();
    if (named === name) return null;
  }
  const head = source.search(/<\/head\s*>/i);
  const at = head === -1 ? 0 : head;
  const rule = `<style>@font-face { font-family: "${name}"; src: url({{ brand.fonts[${index}].src }}) }</style>\n`;
  return { from: at, to: at, insert: rule };
}
