// Canvas adaptation measured in the live document (docs/decisions/adapt.md). The source
// arrives with every element marked (canvasLayoutMarker = its position in document order); this
// lays it out at the original canvas size, then at each target size decides the inline styles
// that adapt it, and answers them per marker, so the caller can write them into the source.
//
// - Pages (data-svc-page elements) take the new size. A page with text in normal flow (headings,
//   paragraphs, flex, grid) is zoomed by z and laid out at (width / z, height / z), so its content
//   reflows at the new aspect ratio with everything (type, spacing, images) scaled by z. z is the
//   largest value in [min(sx, sy), sqrt(sx * sy)] at which no flow text leaves its page or a
//   clipping ancestor, found by bisection on real layouts: type grows as far as the page allows,
//   never past the area-preserving scale, never below the scale that keeps the whole design.
// - Positioned boxes (computed position absolute or fixed, with a size) are moved as before: in
//   their containing block, a box spanning 90% of an axis stretches; a box with text scales its
//   size per axis, other boxes uniformly; each axis keeps its start margin, end margin or relative
//   centre by thirds. A top-level box is zoomed to the canvas factor min(sx, sy) (type in it never
//   below minAdaptedFontPx unless smaller before); nested boxes follow their container.
// - Elements around the pages that had exactly the canvas width or height take the new one.
// In-page code is plain JavaScript source (see select-canvas-pages.ts): it runs with script off.
import type { Page } from 'puppeteer-core';
import type { CanvasLayout, CanvasLayoutEdit } from '@svc/contracts';
import { canvasLayoutMarker, minAdaptedFontPx } from '@svc/rules';

export interface CanvasSize {
  width: number;
  height: number;
}

const SHARED = `
  const MARK = ${JSON.stringify(canvasLayoutMarker)};
  const MIN_FONT = ${minAdaptedFontPx};
  const byId = (id) => id === '#viewport' ? null : id === '#body' ? document.body : id === '#html' ? document.documentElement : document.querySelector('[' + MARK + '="' + id + '"]');
  const refOf = (el) => !el ? '#viewport' : el.getAttribute(MARK) ?? (el === document.body ? '#body' : el === document.documentElement ? '#html' : null);
  const zoomOf = (el) => { let zoom = 1; for (let node = el; node; node = node.parentElement) zoom *= parseFloat(getComputedStyle(node).zoom) || 1; return zoom; };
  const rectOf = (el) => { const r = el.getBoundingClientRect(); return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height }; };
  const paddingBox = (el, canvas) => {
    if (!el) return { x: 0, y: 0, width: canvas.width, height: canvas.height };
    const r = rectOf(el);
    const zoom = el.offsetWidth > 0 ? r.width / el.offsetWidth : zoomOf(el);
    return { x: r.x + el.clientLeft * zoom, y: r.y + el.clientTop * zoom, width: el.clientWidth * zoom, height: el.clientHeight * zoom };
  };
  const texts = (root) => {
    const found = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.data.trim() && node.parentElement && node.parentElement.getClientRects().length > 0) found.push(node);
    }
    return found;
  };
  const screenFont = (node) => parseFloat(getComputedStyle(node.parentElement).fontSize) * zoomOf(node.parentElement);
  const isPositioned = (el) => /^(absolute|fixed)$/.test(getComputedStyle(el).position);
`;

/** At the original canvas size: pages, positioned boxes, canvas-sized ancestors, and their geometry. */
const MEASURE = `(canvas) => {
  ${SHARED}
  const marked = [...document.querySelectorAll('[' + MARK + ']')];
  const pages = marked.filter((el) => el.hasAttribute('data-svc-page') && !el.parentElement?.closest('[data-svc-page]') && rectOf(el).width > 0 && rectOf(el).height > 0);
  const boxes = marked.filter((el) => el !== document.body && el !== document.documentElement && !pages.includes(el) && isPositioned(el) && rectOf(el).width > 0 && rectOf(el).height > 0);
  const boxSet = new Set(boxes);
  const inBox = (node, stop) => { for (let el = node.parentElement; el && el !== stop; el = el.parentElement) if (boxSet.has(el)) return true; return false; };
  const containers = {};
  const containerOf = (box) => {
    for (let el = box.parentElement; el; el = el.parentElement) if (boxSet.has(el)) return { ref: refOf(el), nested: true };
    let block = getComputedStyle(box).position === 'fixed' ? null : box.offsetParent;
    if (block === document.body && getComputedStyle(block).position === 'static') block = null;
    return { ref: refOf(block), nested: false };
  };
  const plannedBoxes = boxes.map((el) => {
    const container = containerOf(el);
    if (container.ref !== null && !(container.ref in containers)) containers[container.ref] = paddingBox(byId(container.ref), canvas);
    const fonts = texts(el).map(screenFont);
    const transform = getComputedStyle(el).transform;
    const translateOnly = /^matrix\\(1, 0, 0, 1, /.test(transform);
    return { id: refOf(el), rect: rectOf(el), container: container.ref, nested: container.nested, hasText: fonts.length > 0, minFont: fonts.length ? Math.min(...fonts) : 0, translateOnly };
  }).filter((box) => box.id && box.container !== null && !box.id.startsWith('#'));
  const plannedPages = pages.map((el) => {
    const flow = texts(el).filter((node) => !inBox(node, el));
    const style = getComputedStyle(el);
    const limited = style.minWidth !== '0px' && style.minWidth !== 'auto' || style.minHeight !== '0px' && style.minHeight !== 'auto' || style.maxWidth !== 'none' || style.maxHeight !== 'none';
    return { id: refOf(el), rect: rectOf(el), flow: flow.length > 0, limited };
  });
  const sized = [];
  const around = new Set([document.documentElement, document.body].filter(Boolean));
  for (const pageEl of pages) for (let el = pageEl.parentElement; el; el = el.parentElement) around.add(el);
  for (const el of around) {
    const id = el.getAttribute(MARK);
    if (!id) continue;
    const r = rectOf(el);
    const width = Math.abs(r.width - canvas.width) < 0.5;
    const height = Math.abs(r.height - canvas.height) < 0.5;
    if (width || height) sized.push({ id, width, height });
  }
  return { pages: plannedPages, boxes: plannedBoxes, containers, sized };
}`;

/** At a target size: applies the plan, bisecting each flow page's zoom; answers the edits and restores the document. */
const ADAPT = `(canvas, target, plan) => {
  ${SHARED}
  const sx = target.width / canvas.width;
  const sy = target.height / canvas.height;
  const factor = Math.min(sx, sy);
  const round = (value, digits) => { const unit = 10 ** digits; return Math.round(value * unit) / unit; };
  const px = (value, digits = 2) => round(value, digits) + 'px';
  const original = new Map();
  const edits = new Map();
  const set = (el, id, declarations) => {
    if (!original.has(el)) original.set(el, el.getAttribute('style'));
    const edit = edits.get(id) ?? new Map();
    for (const [property, value] of declarations) {
      const important = value.endsWith(' !important');
      el.style.setProperty(property, important ? value.slice(0, -' !important'.length) : value, important ? 'important' : '');
      edit.delete(property);
      edit.set(property, value);
    }
    edits.set(id, edit);
  };
  try {
    for (const item of plan.sized) {
      const el = byId(item.id);
      if (!el) continue;
      const declarations = [];
      if (item.width) declarations.push(['width', px(target.width)]);
      if (item.height) declarations.push(['height', px(target.height)]);
      set(el, item.id, declarations);
    }
    const boxIds = new Set(plan.boxes.map((box) => box.id));
    for (const item of plan.pages) {
      const el = byId(item.id);
      const width = item.rect.width * sx;
      const height = item.rect.height * sy;
      // a stylesheet's !important size outranks a plain inline one: then the inline one is important too
      let priority = '';
      const apply = (zoom) => {
        const declarations = [['zoom', String(zoom)], ['width', px(width / zoom, 3)], ['height', px(height / zoom, 3)]];
        if (item.limited) declarations.push(['min-width', '0px'], ['min-height', '0px'], ['max-width', 'none'], ['max-height', 'none']);
        set(el, item.id, declarations.map(([property, value]) => [property, value + priority]));
      };
      apply(1);
      const sized = rectOf(el);
      if (Math.abs(sized.width - width) > 0.5 || Math.abs(sized.height - height) > 0.5) priority = ' !important';
      if (!item.flow) {
        apply(round(factor, 4));
        continue;
      }
      const flowTexts = texts(el).filter((node) => { for (let p = node.parentElement; p && p !== el; p = p.parentElement) if (boxIds.has(p.getAttribute(MARK))) return false; return true; });
      const fits = (zoom) => {
        apply(zoom);
        const page = rectOf(el);
        const range = document.createRange();
        for (const node of flowTexts) {
          const clips = [page];
          for (let p = node.parentElement; p && p !== el; p = p.parentElement) {
            const style = getComputedStyle(p);
            if (style.overflowX !== 'visible' || style.overflowY !== 'visible') clips.push(rectOf(p));
          }
          range.selectNodeContents(node);
          for (const r of range.getClientRects()) {
            if (r.width < 0.5 || r.height < 0.5) continue;
            const x = r.left + scrollX;
            const y = r.top + scrollY;
            for (const clip of clips) {
              if (x < clip.x - 1 || y < clip.y - 1 || x + r.width > clip.x + clip.width + 1 || y + r.height > clip.y + clip.height + 1) return false;
            }
          }
        }
        return true;
      };
      let low = factor;
      let high = Math.sqrt(sx * sy);
      if (fits(round(high, 4))) low = high;
      else for (let step = 0; step < 10; step += 1) {
        const middle = (low + high) / 2;
        if (fits(round(middle, 4))) low = middle;
        else high = middle;
      }
      apply(Math.floor(low * 10000) / 10000);
    }
    const placed = (start, size, from, to, sizeFactor, marginFactor) => {
      const scale = to / from;
      if (size >= from * 0.9) return { start: start * scale, size: size * scale };
      const next = Math.min(size * sizeFactor, to);
      const centre = (start + size / 2) / from;
      const end = from - start - size;
      let position;
      if (centre < 1 / 3) position = start * marginFactor;
      else if (centre > 2 / 3) position = to - next - end * marginFactor;
      else position = centre * to - next / 2;
      return { start: Math.min(Math.max(0, position), to - next), size: next };
    };
    for (const box of plan.boxes) {
      const el = byId(box.id);
      const from = plan.containers[box.container];
      const to = paddingBox(byId(box.container), target);
      const fx = to.width / from.width;
      const fy = to.height / from.height;
      const uniform = Math.min(fx, fy);
      const x = placed(box.rect.x - from.x, box.rect.width, from.width, to.width, box.hasText ? fx : uniform, uniform);
      const y = placed(box.rect.y - from.y, box.rect.height, from.height, to.height, box.hasText ? fy : uniform, uniform);
      const declarations = [];
      let zoom;
      if (box.nested) zoom = zoomOf(el);
      else {
        zoom = factor;
        if (box.hasText && box.minFont * factor < MIN_FONT) zoom = Math.max(factor, Math.min(1, MIN_FONT / box.minFont));
        zoom = round(zoom, 4);
        declarations.push(['zoom', String(round(zoom / zoomOf(el.parentElement), 4))]);
      }
      declarations.push(['left', px(x.start / zoom)], ['top', px(y.start / zoom)], ['width', px(x.size / zoom)], ['height', px(y.size / zoom)]);
      declarations.push(['right', 'auto'], ['bottom', 'auto'], ['margin', '0px'], ['box-sizing', 'border-box']);
      if (box.translateOnly) declarations.push(['transform', 'none']);
      set(el, box.id, declarations);
    }
    return [...edits].filter(([id]) => !id.startsWith('#')).map(([id, edit]) => ({ id, style: [...edit] }));
  } finally {
    for (const [el, style] of original) {
      if (style === null) el.removeAttribute('style');
      else el.setAttribute('style', style);
    }
  }
}`;

/**
 * Lays out a loaded, marked canvas document at its own size, then at each target size, and
 * answers the inline styles that adapt it per target (resize_no_layout: no page, no box).
 */
export async function adaptCanvas(page: Page, canvas: CanvasSize, targets: readonly CanvasSize[]): Promise<CanvasLayout[]> {
  const plan = (await page.evaluate(`(${MEASURE})(${JSON.stringify(canvas)})`)) as { pages: unknown[]; boxes: unknown[] };
  if (plan.pages.length === 0 && plan.boxes.length === 0) return targets.map(() => ({ error: 'resize_no_layout' as const }));
  const layouts: CanvasLayout[] = [];
  for (const target of targets) {
    await page.setViewport({ width: target.width, height: target.height, deviceScaleFactor: 1 });
    const edits = (await page.evaluate(`(${ADAPT})(${JSON.stringify(canvas)}, ${JSON.stringify(target)}, ${JSON.stringify(plan)})`)) as CanvasLayoutEdit[];
    layouts.push({ edits });
  }
  // the sandbox records the viewport it was given (the canvas); its reset relies on that record
  await page.setViewport({ width: canvas.width, height: canvas.height, deviceScaleFactor: 1 });
  return layouts;
}
