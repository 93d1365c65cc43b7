// Public API of @svc/renderer (the template sandbox is exported separately as ./template).
export { RenderError, isRenderError, type RenderErrorCategory } from './errors.ts';
export { Renderer } from './renderer.ts';
export { DEFAULT_CHROMIUM_PATH, headlessMode } from './browser/launch-flags.ts';
export { findCanvasPages, type CanvasPage } from './canvas/find-canvas-pages.ts';
export type {
  AssetResolver,
  ImageFormat,
  ImageOptions,
  JavascriptMode,
  PaperFormat,
  PdfMargins,
  PdfOptions,
  RenderImageInput,
  RenderMediaType,
  RenderOutput,
  RenderPdfInput,
  RendererOptions,
  RendererStatus,
  ResolvedAsset,
  Viewport,
} from './types.ts';
