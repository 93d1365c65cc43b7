// Canvas templates (input_mode blank) declare their canvas in the source:
// <meta name="svc-canvas" content="WIDTHxHEIGHT"> (320..7680 by 200..4320); pages are elements
// with data-svc-page="ID". <meta name="svc-brand-kit" content="kit_..."> names a default brand kit.
import { brandKitIdPrefix, canvasHeight, canvasWidth, idPattern } from '@svc/contracts';

export interface Canvas {
  width: number;
  height: number;
}

const metaTag = /<meta\b[^>]*>/gi;

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** The content of the first <meta name="NAME"> of a source, if any. */
export function metaContent(source: string, name: string): string | undefined {
  for (const tag of source.matchAll(metaTag)) {
    if (attribute(tag[0], 'name')?.trim().toLowerCase() === name) return attribute(tag[0], 'content')?.trim() ?? '';
  }
  return undefined;
}

export type CanvasDeclaration = { kind: 'none' } | { kind: 'invalid' } | { kind: 'canvas'; canvas: Canvas };

/** The declared canvas: none, invalid (unreadable or out of range), or its size. */
export function readCanvas(source: string): CanvasDeclaration {
  const content = metaContent(source, 'svc-canvas');
  if (content === undefined) return { kind: 'none' };
  const match = /^(\d{1,5})\s*x\s*(\d{1,5})$/i.exec(content);
  if (!match) return { kind: 'invalid' };
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width < canvasWidth.min || width > canvasWidth.max || height < canvasHeight.min || height > canvasHeight.max) return { kind: 'invalid' };
  return { kind: 'canvas', canvas: { width, height } };
}

/** The default brand kit a source names; renders and previews check it is owned and active (brand-values.ts). */
export function defaultBrandKitId(source: string): string | null {
  const content = metaContent(source, 'svc-brand-kit');
  return content && idPattern(brandKitIdPrefix).test(content) ? content : null;
}
