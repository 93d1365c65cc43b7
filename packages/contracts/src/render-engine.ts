// The render engine's contract: what the job pipeline (core) asks of the browser side and what
// it answers, declared once. @svc/renderer implements RenderEngine; core's ServiceContext holds
// one (the worker's Chromium pool, or an engine of a test's own). The render options are the
// object stored with the job (render_jobs.options): core writes it, the renderer reads it as it
// is, field names included, so nothing converts between the two.
import type { javascriptModes } from '@svc/rules';
import type { RenderFindings } from './render-report.ts';
import type { artifactMediaTypes, ImageOptions, JobErrorCategory, PdfOptions } from './renders.ts';

export type JavascriptMode = (typeof javascriptModes)[number];
export type ImageFormat = ImageOptions['format'];
export type RenderMediaType = (typeof artifactMediaTypes)[number];

// Type aliases rather than interfaces: the stored options are JSON, and only an alias is
// assignable to a JSON value (Prisma's InputJsonValue) without an index signature.

/** CSS pixels of a PDF's layout viewport, with the defaults applied. */
export type EffectiveViewport = {
  width: number;
  height: number;
  device_scale_factor: number;
};

/** An image's output, with the defaults applied: the viewport is the image, at scale factor 1. */
export type EffectiveImageOptions = {
  format: ImageFormat;
  width: number;
  height: number;
  /** jpeg and webp only */
  quality?: number;
  /** png and webp only; stored with every job, omitted it is false */
  transparent?: boolean;
};

/**
 * A PDF job's options: the request's pdf options with the defaults applied (format or size,
 * margins, landscape, print_background, scale, display_header_footer), its viewport, script
 * mode and canvas pages.
 */
export type PdfRenderOptions = {
  kind: 'pdf';
  pdf: PdfOptions;
  viewport: EffectiveViewport;
  javascript: JavascriptMode;
  /** canvas page ids in output order; omitted prints the document as it is */
  pages?: string[];
};

export type ImageRenderOptions = {
  kind: 'image';
  image: EffectiveImageOptions;
  javascript: JavascriptMode;
  /** at most one canvas page id: the image is that page's region (carousel members) */
  pages?: string[];
};

/** Everything the renderer needs besides the html; stored with the job as it is. */
export type RenderOptions = PdfRenderOptions | ImageRenderOptions;

/** Answers the page's asset://asset_<32 hex> requests (canonical form) with bytes, or null to refuse. */
export type AssetResolver = (reference: string) => Promise<ResolvedAsset | null>;

export interface ResolvedAsset {
  bytes: Buffer;
  mediaType: string;
  /** A brand kit font: the family name its file declares, so the render report can say where a face came from. */
  fontFamily?: string;
}

/**
 * Where lines of the service's log go: the core's logger, the renderer's, and the one a caller
 * hands the engine for one piece of work (its lines then carry the caller's ids).
 */
export interface WorkLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** What every piece of browser work takes besides its options. */
interface EngineWork {
  /**
   * The isolation boundary: a reset sandbox is reused only for later work of the same
   * account. Omitted, the sandbox serves this work only.
   */
  account?: string;
  html: string;
  /** Answers the document's asset:// requests; omitted, every asset request is refused. */
  assets?: AssetResolver;
  /** Omitted: the engine's own default. */
  timeoutMs?: number;
}

interface RenderWork extends EngineWork {
  /** Bulk work (group members) waits for a browser slot behind every single render. */
  bulk?: boolean;
  /** Where the lines about this render go (the caller's, carrying the job's id); omitted: the engine's own logger. */
  logger?: WorkLogger;
  /** Where the file comes from, written into its metadata (docs/render-report.md, Provenance). */
  provenance?: RenderProvenance;
}

/** What a rendered file records about its origin. */
export interface RenderProvenance {
  job_id: string;
  /** saved-template renders only */
  template?: { id: string; version: number };
  /** The keyed hash of the template data (hmac-sha256:, docs/decisions/renders.md, Provenance); template renders only */
  data_sha256?: string;
}

/** A job's stored options (kind aside) and what to render them with. */
export type RenderPdfInput = RenderWork & Omit<PdfRenderOptions, 'kind'>;
export type RenderImageInput = RenderWork & Omit<ImageRenderOptions, 'kind'>;

export interface RenderOutput {
  bytes: Buffer;
  mediaType: RenderMediaType;
  /** a PDF's pages */
  pageCount?: number;
  /** what the renderer saw: fonts, problems, timing (the browser's part of the render report) */
  findings: RenderFindings;
}

export interface AdaptCanvasInput extends EngineWork {
  /** The source with every element marked (markCanvasSource, canvasLayoutMarker of @svc/rules). */
  html: string;
  /** the size the source declares */
  canvas: { width: number; height: number };
  targets: { width: number; height: number }[];
  /** default disabled */
  javascript?: JavascriptMode;
}

/** Inline declarations the layout sets on one marked element (its marker is the id), in order. */
export interface CanvasLayoutEdit {
  id: string;
  style: [property: string, value: string][];
}

/** One target size's layout, or resize_no_layout when the source has no page and no box. */
export type CanvasLayout = { edits: CanvasLayoutEdit[] } | { error: 'resize_no_layout' };

export interface MeasureLayoutInput extends EngineWork {
  /** the output size the document is laid out at (script off) */
  viewport: { width: number; height: number };
}

/** What measureLayout answers: what a reviewer of a rendered image cannot always see in it. */
export interface LayoutFacts {
  /** the document's scroll size; larger than the viewport when content runs past the canvas */
  contentWidth: number;
  contentHeight: number;
  /** text runs (text nodes) with a line box outside the viewport */
  textOutside: number;
  /** elements that clip their own content (overflow other than visible, content larger than the box) */
  clippedBoxes: number;
}

/** The browser side of renders, adapt and the AI review's layout facts. */
export interface RenderEngine {
  renderPdf(input: RenderPdfInput): Promise<RenderOutput>;
  renderImage(input: RenderImageInput): Promise<RenderOutput>;
  /** Lays out a marked canvas source at its size and each target size (adapt, docs/decisions/adapt.md). */
  adaptCanvas(input: AdaptCanvasInput): Promise<CanvasLayout[]>;
  /** Lays a document out at an output size and measures it; absent where no browser runs. */
  measureLayout?(input: MeasureLayoutInput): Promise<LayoutFacts>;
  /** A PDF's first page as a small WebP (the dashboard's history); absent where no rasteriser runs. */
  pdfThumbnail?(pdf: Uint8Array): Promise<Uint8Array>;
  /** True only for an engine of a process that never renders: browser work goes to a worker. */
  readonly absent?: boolean;
}

/**
 * A render that failed for a reason of the job's own: the job fails with this category and
 * stable snake_case code. The message is for logs only and never shown to a customer. Anything
 * else an engine throws is a fault of the process, and the job is left for recovery.
 */
export class RenderError extends Error {
  readonly category: JobErrorCategory;
  readonly code: string;
  /** what the renderer saw before the render stopped, when it got that far */
  findings?: RenderFindings;

  constructor(category: JobErrorCategory, code: string, message?: string, options?: { cause?: unknown }) {
    super(message ?? `${category}: ${code}`, options);
    this.name = 'RenderError';
    this.category = category;
    this.code = code;
  }
}

export function isRenderError(error: unknown): error is RenderError {
  return error instanceof RenderError;
}
