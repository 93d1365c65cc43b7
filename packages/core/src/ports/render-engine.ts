import type { RenderEngine } from '@svc/contracts';

/**
 * The browser side of renders, as the job pipeline sees it: RenderEngine of @svc/contracts
 * (render-engine.ts), which @svc/renderer's Renderer implements. The worker passes its Chromium
 * pool; tests may pass an engine of their own. Options arrive as stored with the job, validated
 * and with the request defaults applied; a failure of the job's own is a RenderError.
 */
export type { RenderEngine } from '@svc/contracts';

/** The engine of a process that never renders (web, CLI): asking it is a programming error. */
export const noRenderEngine: RenderEngine = {
  absent: true,
  renderPdf: () => Promise.reject(new Error('this process has no render engine')),
  renderImage: () => Promise.reject(new Error('this process has no render engine')),
  adaptCanvas: () => Promise.reject(new Error('this process has no render engine')),
};
