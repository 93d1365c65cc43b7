// Public API of @svc/renderer: the Chromium side of renders (templates are evaluated by @svc/templating).
export { RenderError, isRenderError, type RenderErrorCategory } from './errors.ts';
export { Renderer } from './renderer.ts';
export { DEFAULT_CHROMIUM_PATH, headlessMode } from './browser/launch-flags.ts';
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
  RendererLogger,
  RendererOptions,
  RendererStatus,
  ResolvedAsset,
  Viewport,
} from './types.ts';
