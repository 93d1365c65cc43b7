// What the editor reads from a source as the user types, the way the service reads it: the
// svc-canvas meta and the data-svc-page elements (with their optional names).

export interface CanvasPage {
  id: string;
  name: string | null;
}

const canvasMeta = /<meta\s[^>]*name\s*=\s*["']svc-canvas["'][^>]*>/i;
const contentAttribute = /content\s*=\s*["']\s*(\d+)\s*x\s*(\d+)\s*["']/i;
const pageElement = /<[a-z][^>]*\sdata-svc-page\s*=\s*["']([A-Za-z][\w-]{0,63})["'][^>]*>/gi;
const pageName = /\sdata-svc-page-name\s*=\s*["']([^"']*)["']/i;

/** The declared canvas size, or null for a document template. */
export function canvasOf(source: string): { width: number; height: number } | null {
  const meta = canvasMeta.exec(source)?.[0];
  const size = meta ? contentAttribute.exec(meta) : null;
  return size ? { width: Number(size[1]), height: Number(size[2]) } : null;
}

/** Canvas pages in document order (template syntax inside an id is not a page id). */
export function canvasPages(source: string): CanvasPage[] {
  const pages: CanvasPage[] = [];
  for (const match of source.matchAll(pageElement)) {
    pages.push({ id: match[1]!, name: pageName.exec(match[0])?.[1] ?? null });
  }
  return pages;
}

/** A size id made from a name: lowercase letters, digits and hyphens, as saved sizes need. */
export function sizeIdOf(name: string, taken: readonly string[]): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32) || 'size';
  const start = /^[a-z0-9]/.test(base) && base !== 'original' ? base : `s-${base}`;
  let id = start;
  for (let n = 2; taken.includes(id); n += 1) id = `${start}-${n}`;
  return id;
}
