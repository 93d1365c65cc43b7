import type { Logger, RenderEngine, ServiceConfig } from '@svc/core';
import type { BrowserPoolStatus } from '@svc/core/probes';
import { pdfFirstPageThumbnail, Renderer } from '@svc/renderer';

export interface WorkerRenderEngine extends RenderEngine {
  /** Starts the browser now, so the first render finds it warm. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** Browsers launched since the worker started (restarts included); 0 before the first. */
  browserLaunches(): Promise<number>;
  /** The pool's state for readiness and metrics; null until it has started. */
  poolStatus(): BrowserPoolStatus | null;
}

/** The worker's Chromium pool behind the engine port, started on first use and after a failed start. */
export function chromiumEngine(options: { config: ServiceConfig; logger: Logger }): WorkerRenderEngine {
  const { config, logger } = options;
  let renderer: Promise<Renderer> | null = null;
  // the started pool, read synchronously when Prometheus scrapes
  let running: Renderer | null = null;
  const started = () => {
    renderer ??= Renderer.start({
      executablePath: config.chromiumPath,
      renderTimeoutMs: config.renderTimeoutMs,
      warmSandboxes: config.warmSandboxes.size,
      warmSandboxJobs: config.warmSandboxes.maxJobs,
      warmSandboxMs: config.warmSandboxes.maxAgeMs,
      logger,
    }).then(
      (pool) => (running = pool),
      (error: unknown) => {
        renderer = null;
        throw error;
      },
    );
    return renderer;
  };
  return {
    renderPdf: async (input) => (await started()).renderPdf(input),
    renderImage: async (input) => (await started()).renderImage(input),
    adaptCanvas: async (input) => (await started()).adaptCanvas(input),
    measureLayout: async (input) => (await started()).measureLayout(input),
    // poppler, not the browser: a thumbnail never starts the pool
    pdfThumbnail: pdfFirstPageThumbnail,
    start: async () => {
      await started();
    },
    close: async () => {
      if (renderer) await (await renderer.catch(() => null))?.close();
    },
    browserLaunches: async () => (renderer ? ((await renderer.catch(() => null))?.status().launches ?? 0) : 0),
    poolStatus: () => running?.status() ?? null,
  };
}
