// The source side of canvas adaptation (docs/decisions/adapt.md). The browser decides
// (the renderer's canvas/adapt-canvas.ts lays the source out and measures it); this module marks
// each source element so the browser's answers map back to it, and splices those answers into
// the source text: only the style attributes, the canvas-sized lengths of <style> blocks and the
// svc-canvas meta change, every other byte (template syntax included) stays as written.
import type { CanvasLayout } from '@svc/contracts';
import { canvasLayoutMarker } from '@svc/rules';
import { type HTMLElement, parse } from 'node-html-parser';
import { DomainError } from '../shared/errors.ts';
import type { Canvas } from './canvas.ts';
import { parseDeclarations, serializeDeclarations } from './css-declarations.ts';

/** More elements than this answer resize_timeout at once: a deterministic bound on layout work. */
export const maxAdaptElements = 20_000;

const parseOptions = { comment: true, blockTextElements: { script: true, noscript: true, style: true, pre: true } };

function elementsOf(source: string): HTMLElement[] {
  const elements = parse(source, parseOptions).querySelectorAll('*');
  if (elements.length > maxAdaptElements) throw new DomainError('resize_timeout');
  return elements;
}

/** The source with every element marked by its position in document order, for the browser to lay out. */
export function markCanvasSource(source: string): string {
  const elements = elementsOf(source);
  return splice(
    source,
    elements.flatMap((element, index) => {
      const tag = startTag(source, element);
      return tag ? [{ at: tag.nameEnd, remove: 0, text: ` ${canvasLayoutMarker}="${index}"` }] : [];
    }),
  );
}

/**
 * The adapted source of each target: its layout's inline styles written into the style
 * attributes (a declaration replaces one of the same property), canvas-sized widths and heights
 * of <style> blocks made the target's, and the target declared in the svc-canvas meta.
 */
export function adaptedSources(source: string, canvas: Canvas, targets: readonly Canvas[], layouts: readonly CanvasLayout[]): (string | { error: 'resize_no_layout' })[] {
  const elements = elementsOf(source);
  const styles = elements.filter((element) => element.rawTagName.toLowerCase() === 'style');
  const metas = elements.filter((element) => element.rawTagName.toLowerCase() === 'meta' && element.getAttribute('name')?.trim().toLowerCase() === 'svc-canvas');
  return targets.map((target, index) => {
    const layout = layouts[index];
    if (!layout || 'error' in layout) return { error: 'resize_no_layout' as const };
    const edits: Splice[] = [];
    for (const edit of layout.edits) {
      const element = /^\d+$/.test(edit.id) ? elements[Number(edit.id)] : undefined;
      const tag = element && startTag(source, element);
      if (!tag) continue;
      const style = tag.attributes.get('style');
      const changed = new Set(edit.style.map(([property]) => property));
      const kept = parseDeclarations(style?.value ?? '').filter((declaration) => !changed.has(declaration.property));
      const value = serializeDeclarations([...kept, ...edit.style.map(([property, written]) => ({ property, value: written }))]);
      edits.push(style ? replaceValue(style, value) : { at: tag.nameEnd, remove: 0, text: ` style=${quoted(value)}` });
    }
    for (const element of styles) {
      const tag = startTag(source, element);
      const close = element.range[1] - '</style>'.length;
      if (!tag || source.slice(close, element.range[1]).toLowerCase() !== '</style>') continue;
      edits.push({ at: tag.end, remove: close - tag.end, text: resizeStyleSheet(source.slice(tag.end, close), canvas, target) });
    }
    for (const element of metas) {
      const content = startTag(source, element)?.attributes.get('content');
      if (content) edits.push(replaceValue(content, `${target.width}x${target.height}`));
    }
    return splice(source, edits);
  });
}

interface Splice {
  at: number;
  remove: number;
  text: string;
}

/** Applies non-overlapping splices, last first so earlier offsets stay valid. */
function splice(source: string, edits: Splice[]): string {
  let result = source;
  for (const edit of [...edits].sort((a, b) => b.at - a.at)) result = result.slice(0, edit.at) + edit.text + result.slice(edit.at + edit.remove);
  return result;
}

interface AttributeText {
  /** where the value starts and ends in the source (inside its quotes) */
  start: number;
  end: number;
  value: string;
  quote: '"' | "'" | '';
}

/**
 * An element's start tag as written: where its name ends, where the tag ends, and its attributes
 * with their positions. Quoted values may hold '>' (template expressions often do).
 */
function startTag(source: string, element: HTMLElement): { nameEnd: number; end: number; attributes: Map<string, AttributeText> } | null {
  const begin = element.range[0];
  const name = /^<([^\s/>]+)/.exec(source.slice(begin, begin + 256));
  if (!name) return null;
  const attributes = new Map<string, AttributeText>();
  const nameEnd = begin + name[0].length;
  let index = nameEnd;
  while (index < source.length) {
    const char = source[index]!;
    if (char === '>') return { nameEnd, end: index + 1, attributes };
    if (/[\s/]/.test(char)) {
      index += 1;
      continue;
    }
    const attribute = /^[^\s/>=]+/.exec(source.slice(index, index + 1024));
    if (!attribute) return null;
    const key = attribute[0].toLowerCase();
    index += attribute[0].length;
    const equals = /^\s*=\s*/.exec(source.slice(index, index + 64));
    if (!equals) continue;
    index += equals[0].length;
    const quote = source[index] === '"' || source[index] === "'" ? (source[index] as '"' | "'") : '';
    const start = quote ? index + 1 : index;
    let end = start;
    if (quote) {
      end = source.indexOf(quote, start);
      if (end === -1) return null;
    } else {
      while (end < source.length && !/[\s>]/.test(source[end]!)) end += 1;
    }
    if (!attributes.has(key)) attributes.set(key, { start, end, value: source.slice(start, end), quote });
    index = quote ? end + 1 : end;
  }
  return null;
}

/** A new attribute value in place of the old, in the old quotes where they can hold it. */
function replaceValue(attribute: AttributeText, value: string): Splice {
  if (attribute.quote && !value.includes(attribute.quote)) return { at: attribute.start, remove: attribute.end - attribute.start, text: value };
  const start = attribute.quote ? attribute.start - 1 : attribute.start;
  const end = attribute.quote ? attribute.end + 1 : attribute.end;
  return { at: start, remove: end - start, text: quoted(value) };
}

function quoted(value: string): string {
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}

/** In <style> blocks, widths and heights of exactly the canvas size follow the canvas. */
function resizeStyleSheet(text: string, canvas: Canvas, target: Canvas): string {
  return text
    .replace(/((?:^|[\s;{])(?:min-|max-)?width\s*:\s*)(\d+(?:\.\d+)?)px/gi, (whole, lead: string, number: string) =>
      Number(number) === canvas.width ? `${lead}${target.width}px` : whole,
    )
    .replace(/((?:^|[\s;{])(?:min-|max-)?height\s*:\s*)(\d+(?:\.\d+)?)px/gi, (whole, lead: string, number: string) =>
      Number(number) === canvas.height ? `${lead}${target.height}px` : whole,
    );
}
