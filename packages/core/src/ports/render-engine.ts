import { jobErrorCategories, type PdfRequest } from '@svc/contracts';

/**
 * The browser side of a render, as the job pipeline sees it. The worker passes the Chromium
 * pool of @svc/renderer; tests may pass an engine of their own. Options arrive validated and
 * with the defaults of the render request rules applied.
 */
export interface RenderEngine {
  renderPdf(input: RenderPdfInput): Promise<RenderOutput>;
  renderImage(input: RenderImageInput): Promise<RenderOutput>;
  /** True only for noRenderEngine: this process has no browser, so browser work goes to a worker. */
  readonly absent?: boolean;
  /** Lays out a marked canvas source at its size and each target size (adapt, docs/decisions/adapt.md). */
  adaptCanvas(input: AdaptCanvasInput): Promise<CanvasLayout[]>;
  /** Lays a document out at an output size and measures it (the AI review's layout facts); absent where no browser runs. */
  measureLayout?(input: MeasureLayoutInput): Promise<LayoutFacts>;
}

export interface MeasureLayoutInput {
  account: string;
  html: string;
  viewport: { width: number; height: number };
  assets?: AssetResolver;
  timeoutMs: number;
}

/** What measureLayout answers: the document's scroll size, text outside the viewport, boxes that clip their content. */
export interface LayoutFacts {
  contentWidth: number;
  contentHeight: number;
  textOutside: number;
  clippedBoxes: number;
}

export interface AdaptCanvasInput {
  /** The isolation boundary, as for renders; omitted, the sandbox serves this layout only. */
  account?: string;
  /** The source with every element marked (markCanvasSource). */
  html: string;
  canvas: { width: number; height: number };
  targets: { width: number; height: number }[];
  javascript: JavascriptMode;
  /** Answers the source's asset:// requests; omitted, every asset request is refused. */
  assets?: AssetResolver;
  timeoutMs: number;
}

/** Inline declarations the layout sets on one marked element (its marker is the id). */
export interface CanvasLayoutEdit {
  id: string;
  style: [string, string][];
}

export type CanvasLayout = { edits: CanvasLayoutEdit[] } | { error: 'resize_no_layout' };

export type JavascriptMode = 'disabled' | 'enabled';

/** Answers the page's asset://asset_<32 hex> requests (canonical form) with bytes, or null to refuse. */
export type AssetResolver = (reference: string) => Promise<{ bytes: Buffer; mediaType: string } | null>;

export interface RenderPdfInput {
  /** The isolation boundary: the engine may reuse a reset sandbox only for jobs of the same account. */
  account: string;
  html: string;
  pdf: NonNullable<PdfRequest['pdf']>;
  viewport: { width: number; height: number; device_scale_factor: number };
  javascript: JavascriptMode;
  /** canvas page ids in output order; omitted prints the document as it is */
  pages?: string[];
  /** The job's captured assets; omitted, every asset request is refused. */
  assets?: AssetResolver;
  timeoutMs: number;
  /** Bulk work (group members): waits for a browser slot behind every single render. */
  bulk?: boolean;
}

export interface RenderImageInput {
  account: string;
  html: string;
  image: { format: 'png' | 'jpeg' | 'webp'; width: number; height: number; quality?: number; transparent: boolean };
  javascript: JavascriptMode;
  pages?: string[];
  assets?: AssetResolver;
  timeoutMs: number;
  bulk?: boolean;
}

export interface RenderOutput {
  bytes: Uint8Array;
  mediaType: 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/webp';
  pageCount?: number;
}

/**
 * A render that failed for a reason of the job's own (the contract's job error): the engine throws
 * an Error named RenderError with a category and a stable code. Anything else it throws is a
 * fault of the process, and the job is left for recovery.
 */
export interface RenderFailure extends Error {
  category: (typeof jobErrorCategories)[number];
  code: string;
}

export function isRenderFailure(error: unknown): error is RenderFailure {
  if (!(error instanceof Error) || error.name !== 'RenderError') return false;
  const { category, code } = error as Partial<RenderFailure>;
  return typeof code === 'string' && (jobErrorCategories as readonly unknown[]).includes(category);
}

/** The engine of a process that never renders (web, CLI): asking it is a programming error. */
export const noRenderEngine: RenderEngine = {
  absent: true,
  renderPdf: () => Promise.reject(new Error('this process has no render engine')),
  renderImage: () => Promise.reject(new Error('this process has no render engine')),
  adaptCanvas: () => Promise.reject(new Error('this process has no render engine')),
};
