// Public API of @svc/renderer: the Chromium side of renders (templates are evaluated by @svc/templating).
// Renderer implements the render engine's contract (RenderEngine of @svc/contracts, with its
// inputs, outputs and RenderError); what is exported here is only the renderer's own.
export { Renderer } from './renderer.ts';
export { DEFAULT_CHROMIUM_PATH, headlessMode } from './browser/launch-flags.ts';
export type { RendererLogger, RendererOptions, RendererStatus } from './types.ts';
export { pdfFirstPageThumbnail, pdfThumbnailEdge } from './pdf/first-page-thumbnail.ts';
