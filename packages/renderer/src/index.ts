// Public API of @svc/renderer: the Chromium side of renders (templates are evaluated by @svc/templating).
export { RenderError, isRenderError, type RenderErrorCategory } from './errors.ts';
export { Renderer } from './renderer.ts';
export { DEFAULT_CHROMIUM_PATH, headlessMode } from './browser/launch-flags.ts';
export type { CanvasEdit, CanvasLayout } from './canvas/adapt-canvas.ts';
export type { LayoutFacts } from './canvas/measure-layout.ts';
export type {
  AdaptCanvasInput,
  MeasureLayoutInput,
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
