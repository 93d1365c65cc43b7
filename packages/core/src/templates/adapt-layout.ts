// Canvas adaptation: moves and rescales the absolutely positioned elements of a canvas
// template to a new canvas size (README "Saved templates", adapt).
//
// Each positioned element (position absolute or fixed with left, top, width and height in px)
// is a layout box inside its container: the nearest positioned ancestor box, else the canvas.
// With fx, fy the container's per-axis scale and f = min(fx, fy):
// - a box spanning at least 90% of its container on an axis stretches on that axis;
// - a box with text gets width * fx and height * fy (its text may reflow, never overflow, as
//   fonts scale by the canvas factor, at most f); other boxes (images, shapes) scale
//   uniformly by f, keeping their aspect ratio;
// - on each axis a box keeps its anchor: one in the first third keeps its start margin (scaled
//   by f), one in the last third its end margin, others keep their relative centre; the box is
//   then clamped inside its container.
// Font sizes scale by the canvas factor min(sx, sy) but never drop below 12px (or their own
// size, if smaller); other pixel lengths of inline styles (padding, radius, borders, shadows)
// scale by it too. Width and height equal to the canvas (page elements, in inline styles and
// <style> blocks) become the new canvas size, and the svc-canvas meta declares it.
import { type HTMLElement, parse } from 'node-html-parser';
import { DomainError } from '../shared/errors.ts';
import type { Clock } from '../shared/context.ts';
import type { Canvas } from './canvas.ts';
import { type Declaration, parseDeclarations, pixels, px, scalePixels, serializeDeclarations } from './css-declarations.ts';

export const minFontPx = 12;
const spanShare = 0.9;
const maxElements = 20_000;

interface Box {
  element: HTMLElement;
  left: number;
  top: number;
  width: number;
  height: number;
  hasText: boolean;
  container: Box | null;
}

export type AdaptOutcome = { source: string } | { error: 'resize_source_unsupported' | 'resize_no_layout' };

/** Adapts one parsed canvas source to each target size; throws resize_timeout past the deadline. */
export function adaptCanvasSource(source: string, canvas: Canvas, targets: readonly Canvas[], bound: { clock: Clock; deadline: number }): AdaptOutcome[] {
  const root = parse(source, { comment: true, blockTextElements: { script: true, noscript: true, style: true, pre: true } });
  const elements = root.querySelectorAll('*');
  if (elements.length > maxElements) throw new DomainError('resize_timeout');
  const original = new Map(elements.map((element) => [element, element.getAttribute('style')]));
  const styleTexts = root.querySelectorAll('style').map((element) => [element, element.innerHTML] as const);
  const boxes = findBoxes(elements);
  if (boxes.length === 0) return targets.map(() => ({ error: 'resize_no_layout' }));

  return targets.map((target) => {
    if (bound.clock().getTime() > bound.deadline) throw new DomainError('resize_timeout');
    const scale = Math.min(target.width / canvas.width, target.height / canvas.height);
    const placed = new Map<Box, { width: number; height: number }>();
    const boxOf = new Map(boxes.map((box) => [box.element, box]));
    for (const element of elements) {
      const style = original.get(element);
      if (style === undefined) continue;
      const box = boxOf.get(element);
      const declarations = parseDeclarations(style).map((declaration) => scaleDeclaration(declaration, canvas, target, scale, box !== undefined));
      if (box) placeBox(box, declarations, canvas, target, placed);
      element.setAttribute('style', serializeDeclarations(declarations));
    }
    for (const [element, text] of styleTexts) element.set_content(scaleStyleSheet(text, canvas, target, scale));
    for (const meta of root.querySelectorAll('meta')) {
      if (meta.getAttribute('name')?.trim().toLowerCase() === 'svc-canvas') meta.setAttribute('content', `${target.width}x${target.height}`);
    }
    const adapted = root.toString();
    // put the originals back for the next size
    for (const [element, style] of original) if (style !== undefined) element.setAttribute('style', style);
    for (const [element, text] of styleTexts) element.set_content(text);
    return { source: adapted };
  });
}

function findBoxes(elements: HTMLElement[]): Box[] {
  const boxes = new Map<HTMLElement, Box>();
  for (const element of elements) {
    const style = element.getAttribute('style');
    if (!style) continue;
    const values = new Map(parseDeclarations(style).map((declaration) => [declaration.property, declaration.value]));
    if (!/^(absolute|fixed)$/i.test(values.get('position')?.trim() ?? '')) continue;
    const [left, top, width, height] = ['left', 'top', 'width', 'height'].map((name) => pixels(values.get(name)));
    if (left === undefined || top === undefined || width === undefined || height === undefined || width <= 0 || height <= 0) continue;
    let container: Box | null = null;
    for (let parent = element.parentNode; parent && !container; parent = parent.parentNode) container = boxes.get(parent) ?? null;
    const hasText = element.textContent.trim().length > 0;
    boxes.set(element, { element, left, top, width, height, hasText, container });
  }
  return [...boxes.values()];
}

/** Canvas-sized widths and heights follow the canvas; font sizes and other pixel lengths scale. */
function scaleDeclaration(declaration: Declaration, canvas: Canvas, target: Canvas, scale: number, isBox: boolean): Declaration {
  const { property, value } = declaration;
  const length = pixels(value);
  if (isBox && ['left', 'top', 'width', 'height', 'right', 'bottom'].includes(property)) return declaration;
  if (/^(min-|max-)?width$/.test(property) && length === canvas.width) return { property, value: px(target.width) };
  if (/^(min-|max-)?height$/.test(property) && length === canvas.height) return { property, value: px(target.height) };
  if (property === 'font-size' && length !== undefined) return { property, value: px(fontSize(length, scale)) };
  return { property, value: scalePixels(value, scale) };
}

function fontSize(size: number, scale: number): number {
  return Math.min(size, Math.max(minFontPx, size * scale));
}

function placeBox(box: Box, declarations: Declaration[], canvas: Canvas, target: Canvas, placed: Map<Box, { width: number; height: number }>) {
  const from = box.container ? { width: box.container.width, height: box.container.height } : canvas;
  const to = box.container ? (placed.get(box.container) ?? from) : target;
  const fx = to.width / from.width;
  const fy = to.height / from.height;
  const uniform = Math.min(fx, fy);
  const x = placeAxis(box.left, box.width, from.width, to.width, box.hasText ? fx : uniform, uniform);
  const y = placeAxis(box.top, box.height, from.height, to.height, box.hasText ? fy : uniform, uniform);
  placed.set(box, { width: x.size, height: y.size });
  const set = (property: string, value: number) => {
    const existing = declarations.find((declaration) => declaration.property === property);
    if (existing) existing.value = px(value);
  };
  set('left', x.start);
  set('top', y.start);
  set('width', x.size);
  set('height', y.size);
}

/** One axis of a box: stretched when it spans the container, else scaled and anchored. */
function placeAxis(start: number, size: number, container: number, next: number, sizeFactor: number, marginFactor: number) {
  const factor = next / container;
  if (size >= container * spanShare) return { start: start * factor, size: size * factor };
  const newSize = Math.min(size * sizeFactor, next);
  const centre = (start + size / 2) / container;
  const end = container - start - size;
  let newStart: number;
  if (centre < 1 / 3) newStart = start * marginFactor;
  else if (centre > 2 / 3) newStart = next - newSize - end * marginFactor;
  else newStart = centre * next - newSize / 2;
  return { start: Math.min(Math.max(0, newStart), next - newSize), size: newSize };
}

/** In <style> blocks: canvas-sized widths and heights follow the canvas; px font sizes scale. */
function scaleStyleSheet(text: string, canvas: Canvas, target: Canvas, scale: number): string {
  return text
    .replace(/((?:^|[\s;{])(?:min-|max-)?width\s*:\s*)(\d+(?:\.\d+)?)px/gi, (whole, lead: string, number: string) =>
      Number(number) === canvas.width ? `${lead}${px(target.width)}` : whole,
    )
    .replace(/((?:^|[\s;{])(?:min-|max-)?height\s*:\s*)(\d+(?:\.\d+)?)px/gi, (whole, lead: string, number: string) =>
      Number(number) === canvas.height ? `${lead}${px(target.height)}` : whole,
    )
    .replace(/((?:^|[\s;{])font-size\s*:\s*)(\d+(?:\.\d+)?)px/gi, (_, lead: string, number: string) => `${lead}${px(fontSize(Number(number), scale))}`);
}
