// Layers as the rendered canvas lays them out, and the style a move or a resize writes for one.
import { layerAttribute } from './source-map.ts';

export type LayerKind = 'text' | 'image' | 'shape';

export interface Layer {
  /** the index of its element in the source (source-map.ts) */
  index: number;
  kind: LayerKind;
  label: string;
  /** its border box on the canvas page, in canvas pixels */
  x: number;
  y: number;
  width: number;
  height: number;
  /** the computed position scheme, and the left and top it is placed at now (in its own terms) */
  position: string;
  left: number;
  top: number;
  /** what its CSS width and height leave out of the border box (padding and border, for content-box) */
  extraWidth: number;
  extraHeight: number;
}

const px = (value: string) => {
  const number = Number.parseFloat(value);
  return Number.isFinite(number) ? number : 0;
};

function kindOf(element: Element): LayerKind {
  if (element.localName === 'img') return 'image';
  if (element.children.length === 0 && (element.textContent ?? '').trim() !== '') return 'text';
  return 'shape';
}

function labelOf(element: Element, kind: LayerKind): string {
  if (kind === 'text') {
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    return text.length > 36 ? `${text.slice(0, 35)}…` : text;
  }
  if (kind === 'image') return element.getAttribute('alt') || 'Image';
  const className = element.getAttribute('class')?.trim().split(/\s+/)[0];
  return className ? `${element.localName}.${className}` : element.localName;
}

/**
 * Reads the layers of one canvas page from the visual view's rendered document (a frame of the
 * dashboard's origin without script), and scrolls the frame so the page fills it. Repeated
 * copies of one source element (a loop) count once: an edit changes the element they all share.
 */
export function readLayers(document: Document, pageId: string): Layer[] {
  const view = document.defaultView;
  const page = [...document.querySelectorAll('[data-svc-page]')].find((element) => element.getAttribute('data-svc-page') === pageId);
  if (!view || !page) return [];
  document.documentElement.style.overflow = 'hidden';
  const before = page.getBoundingClientRect();
  view.scrollTo(before.left + view.scrollX, before.top + view.scrollY);
  const origin = page.getBoundingClientRect();
  const seen = new Set<number>();
  const layers: Layer[] = [];
  for (const element of page.querySelectorAll(`[${layerAttribute}]`)) {
    const index = Number(element.getAttribute(layerAttribute));
    if (!Number.isInteger(index) || seen.has(index)) continue;
    seen.add(index);
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const style = view.getComputedStyle(element);
    const contentBox = style.boxSizing !== 'border-box';
    const kind = kindOf(element);
    const html = element as HTMLElement;
    const position = style.position;
    const absolute = position === 'absolute' || position === 'fixed';
    layers.push({
      index,
      kind,
      label: labelOf(element, kind),
      x: box.left - origin.left,
      y: box.top - origin.top,
      width: box.width,
      height: box.height,
      position,
      left: absolute ? html.offsetLeft - px(style.marginLeft) : px(style.left),
      top: absolute ? html.offsetTop - px(style.marginTop) : px(style.top),
      extraWidth: contentBox ? px(style.paddingLeft) + px(style.paddingRight) + px(style.borderLeftWidth) + px(style.borderRightWidth) : 0,
      extraHeight: contentBox ? px(style.paddingTop) + px(style.paddingBottom) + px(style.borderTopWidth) + px(style.borderBottomWidth) : 0,
    });
  }
  return layers;
}

const round = (value: number) => `${Math.round(value)}px`;

/**
 * The style properties that move a layer by dx, dy canvas pixels: left and top where it is
 * positioned already; a layer in the normal flow becomes relative, so the rest keeps its place.
 */
export function moveStyle(layer: Layer, dx: number, dy: number): Record<string, string | null> {
  if (layer.position === 'static') return { position: 'relative', left: round(dx), top: round(dy) };
  const moved: Record<string, string | null> = { left: round(layer.left + dx), top: round(layer.top + dy) };
  // an inline right or bottom would fight the new left and top
  if (layer.position === 'absolute' || layer.position === 'fixed') Object.assign(moved, { right: null, bottom: null });
  return moved;
}

/** The style properties that give a layer a new border box (width and height in canvas pixels), moved by dx, dy. */
export function resizeStyle(layer: Layer, dx: number, dy: number, width: number, height: number): Record<string, string | null> {
  const size = { width: round(Math.max(1, width - layer.extraWidth)), height: round(Math.max(1, height - layer.extraHeight)) };
  return Math.round(dx) === 0 && Math.round(dy) === 0 ? size : { ...moveStyle(layer, dx, dy), ...size };
}

export interface DataField {
  path: string;
  value: string;
}

/** The data's fields a layer can show: dotted paths of plain names to strings, numbers and booleans. */
export function dataFields(data: unknown, prefix = ''): DataField[] {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [];
  const fields: DataField[] = [];
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields.push({ path, value: String(value) });
    else fields.push(...dataFields(value, path));
  }
  return fields;
}
