import { jobErrorCategories, type PdfRequest } from '@svc/contracts';

/**
 * The browser side of a render, as the job pipeline sees it. The worker passes the Chromium
 * pool of @svc/renderer; tests may pass an engine of their own. Options arrive validated and
 * with the defaults of spec 2.4 applied.
 */
export interface RenderEngine {
  renderPdf(input: RenderPdfInput): Promise<RenderOutput>;
  renderImage(input: RenderImageInput): Promise<RenderOutput>;
}

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
}

export interface RenderImageInput {
  account: string;
  html: string;
  image: { format: 'png' | 'jpeg' | 'webp'; width: number; height: number; quality?: number; transparent: boolean };
  javascript: JavascriptMode;
  pages?: string[];
  assets?: AssetResolver;
  timeoutMs: number;
}

export interface RenderOutput {
  bytes: Uint8Array;
  mediaType: 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/webp';
  pageCount?: number;
}

/**
 * A render that failed for a reason of the job's own (spec 2.3 job error): the engine throws
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
  renderPdf: () => Promise.reject(new Error('this process has no render engine')),
  renderImage: () => Promise.reject(new Error('this process has no render engine')),
};
