// Public input and output shapes. The job pipeline validates requests against the contracts
// (the render request rules) before calling the renderer; the renderer re-checks only what would otherwise
// produce a wrong artifact silently.

import type { PaperFormat } from '@svc/rules';

export type { PaperFormat } from '@svc/rules';

export interface PdfMargins {
  top?: string;
  right?: string;
  bottom?: string;
  left?: string;
}

export interface PdfOptions {
  format?: PaperFormat;
  /** e.g. "210mm", "8.5in", "794px", "21.0001cm"; requires height, excludes format */
  width?: string;
  height?: string;
  margins?: PdfMargins;
  landscape?: boolean;
  /** default true */
  print_background?: boolean;
  scale?: number;
  display_header_footer?: boolean;
  header_template?: string;
  footer_template?: string;
  title?: string;
  author?: string;
  subject?: string;
  /** open password; the PDF is encrypted with AES-256 */
  password?: string;
}

export interface Viewport {
  width: number;
  height: number;
  device_scale_factor: number;
}

export interface ResolvedAsset {
  bytes: Buffer;
  mediaType: string;
}

/** Resolves asset://asset_<32 hex> references to captured bytes; null means not allowed. */
export interface AssetResolver {
  (url: string): Promise<ResolvedAsset | null>;
}

export type JavascriptMode = 'disabled' | 'enabled';

export interface RenderPdfInput {
  /** The account the job belongs to: only its own later jobs may reuse the sandbox. Omitted: never reused. */
  account?: string;
  html: string;
  pdf: PdfOptions;
  viewport: Viewport;
  javascript: JavascriptMode;
  /** canvas page ids in output order; omitted prints the document as it is */
  pages?: string[];
  assets?: AssetResolver;
  timeoutMs?: number;
  /** bulk work (group members) waits for a pool slot behind every other job */
  bulk?: boolean;
}

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface ImageOptions {
  format: ImageFormat;
  width: number;
  height: number;
  /** jpeg and webp only; default 80 */
  quality?: number;
  /** png and webp only */
  transparent?: boolean;
}

export interface RenderImageInput {
  /** as for PDFs */
  account?: string;
  html: string;
  image: ImageOptions;
  javascript: JavascriptMode;
  /** at most one canvas page id: the image is that page's region */
  pages?: string[];
  assets?: AssetResolver;
  timeoutMs?: number;
  /** bulk work (group members) waits for a pool slot behind every other job */
  bulk?: boolean;
}

export interface AdaptCanvasInput {
  /** as for renders: only this account's later jobs may reuse the sandbox; omitted, never reused */
  account?: string;
  /** the canvas source with every element marked with canvasLayoutMarker (@svc/rules) */
  html: string;
  /** the size the source declares */
  canvas: { width: number; height: number };
  targets: { width: number; height: number }[];
  /** default disabled */
  javascript?: JavascriptMode;
  assets?: AssetResolver;
  timeoutMs?: number;
}

export interface MeasureLayoutInput {
  /** as for renders: only this account's later jobs may reuse the sandbox; omitted, never reused */
  account?: string;
  html: string;
  /** the output size the document is laid out at */
  viewport: { width: number; height: number };
  assets?: AssetResolver;
  timeoutMs?: number;
}

export type RenderMediaType = 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/webp';

export interface RenderOutput {
  bytes: Buffer;
  mediaType: RenderMediaType;
  pageCount?: number;
}

/**
 * Where the renderer reports what an operator should know: browser launches, restarts and
 * crashes, timeouts, sandbox trips. Structural, so the worker passes its own logger and the
 * renderer depends on no package of the service. Fields never carry customer content (HTML,
 * URLs, data): only pids, counts, codes and fixed category names.
 */
export interface RendererLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface RendererOptions {
  /** default SVC_CHROMIUM_PATH, else Debian's headless shell (DEFAULT_CHROMIUM_PATH) */
  executablePath?: string;
  /** simultaneous renders; default os.availableParallelism() */
  concurrency?: number;
  /** renders per browser before it is replaced; default 2000 */
  restartAfter?: number;
  /** idle sandboxes kept warm for the accounts they served; default from memory (defaultWarmSandboxes), 0 turns reuse off */
  warmSandboxes?: number;
  /** jobs a warm sandbox serves before it is closed; default 500 */
  warmSandboxJobs?: number;
  /** how long after opening a warm sandbox is closed; default 15 minutes */
  warmSandboxMs?: number;
  /** default 20000 */
  launchTimeoutMs?: number;
  /** default 30000; a job may ask for its own with timeoutMs */
  renderTimeoutMs?: number;
  /** default: logs nothing */
  logger?: RendererLogger;
}

export interface RendererStatus {
  /** pid of the current browser process, null while none is running */
  browserPid: number | null;
  userDataDir: string | null;
  rendersOnCurrentBrowser: number;
  /** browsers launched since start, including restarts */
  launches: number;
  /** renders waiting for a slot */
  queued: number;
  running: number;
  /** renders the pool runs at once */
  slots: number;
  /** idle sandboxes kept warm for the accounts they served */
  warmSandboxes: number;
  /** fresh sandboxes made ready ahead of the next render */
  spareSandboxes: number;
  /** browsers launched to replace one, by why the one before was retired */
  restarts: Record<'recycle' | 'crash' | 'unresponsive', number>;
  /** browsers that went away on their own (crash, out-of-memory kill, signal) */
  crashes: number;
}
