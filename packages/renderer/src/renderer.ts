// The renderer's public face: validate cheaply, borrow a sandboxed page from the pool, capture,
// post-process. One instance per process.
import { availableParallelism, totalmem } from 'node:os';
import type {
  AdaptCanvasInput,
  EffectiveViewport,
  CanvasLayout,
  LayoutFacts,
  MeasureLayoutInput,
  RenderEngine,
  RenderImageInput,
  RenderOutput,
  RenderPdfInput,
} from '@svc/contracts';
import type { SandboxOptions } from './browser/sandbox.ts';
import type { PageInspection } from './report/inspect-page.ts';
import { DEFAULT_CHROMIUM_PATH } from './browser/launch-flags.ts';
import { BrowserPool } from './browser/browser-pool.ts';
import { adaptCanvas } from './canvas/adapt-canvas.ts';
import { measureLayout } from './canvas/measure-layout.ts';
import { checkPageSelection } from './canvas/select-canvas-pages.ts';
import { stampImage } from './image/provenance.ts';
import { captureImage, compressPng, prepareImage } from './image/render-image.ts';
import { beforePrint, capturePdf, preparePdf } from './pdf/render-pdf.ts';
import { postProcessPdf } from './pdf/post-process.ts';
import { FindingsCollector } from './report/findings-collector.ts';
import { systemFaceFamilies, systemGlyphCoverage } from './report/system-glyphs.ts';
import { printableWidthPx } from './pdf/page-size.ts';
import type { RendererLogger, RendererOptions, RendererStatus } from './types.ts';

const silent: RendererLogger = { info: () => {}, warn: () => {}, error: () => {} };

const DEFAULTS = {
  restartAfter: 2_000,
  launchTimeoutMs: 20_000,
  renderTimeoutMs: 30_000,
  warmSandboxJobs: 500,
  warmSandboxMs: 15 * 60_000,
};

/**
 * Idle warm sandboxes kept by default: a tenth of the machine's memory at about 64 MiB each
 * (an idle sandbox is one renderer process with a blank page), at least 2 and at most 64.
 */
export function defaultWarmSandboxes(memoryBytes = totalmem()): number {
  return Math.min(64, Math.max(2, Math.floor((memoryBytes * 0.1) / (64 * 1024 * 1024))));
}

/** The render engine of the worker: a supervised Chromium pool. */
export class Renderer implements RenderEngine {
  readonly #pool: BrowserPool;
  readonly #renderTimeoutMs: number;
  readonly #inspectPages: boolean;

  private constructor(pool: BrowserPool, renderTimeoutMs: number, inspectPages: boolean) {
    this.#pool = pool;
    this.#renderTimeoutMs = renderTimeoutMs;
    this.#inspectPages = inspectPages;
  }

  /** Launches the first browser; resolves once it is ready to take renders. */
  static async start(options: RendererOptions = {}): Promise<Renderer> {
    const logger = options.logger ?? silent;
    // read once per process; started now so no render waits for it
    if (options.inspectPages !== false) {
      void systemGlyphCoverage();
      void systemFaceFamilies();
    }
    const pool = await BrowserPool.start({
      executablePath: options.executablePath ?? DEFAULT_CHROMIUM_PATH,
      concurrency: options.concurrency ?? availableParallelism(),
      restartAfter: options.restartAfter ?? DEFAULTS.restartAfter,
      launchTimeoutMs: options.launchTimeoutMs ?? DEFAULTS.launchTimeoutMs,
      warm: {
        size: options.warmSandboxes ?? defaultWarmSandboxes(),
        maxJobs: options.warmSandboxJobs ?? DEFAULTS.warmSandboxJobs,
        maxAgeMs: options.warmSandboxMs ?? DEFAULTS.warmSandboxMs,
      },
      logger,
    });
    return new Renderer(pool, options.renderTimeoutMs ?? DEFAULTS.renderTimeoutMs, options.inspectPages !== false);
  }

  async renderPdf(input: RenderPdfInput): Promise<RenderOutput> {
    const geometry = preparePdf(input.pdf);
    if (input.pages) checkPageSelection(input.pages);
    const found = new FindingsCollector();
    try {
      const printed = await this.#pool.inSandbox(
        {
          ...this.#renderWork(input, input.viewport, found, { pageWidth: printableWidthPx(input.pdf, geometry), fitRoot: true, scale: input.pdf.scale ?? 1, fonts: 'printed', headerFooter: input.pdf.display_header_footer === true }),
          question: beforePrint,
        },
        (page, session, answered) => found.time('capture_ms', () => capturePdf(page, session, input.pdf, geometry, input.pages, answered)),
      );
      // outside the pool slot: post-processing needs no browser (the report's look at the page goes on meanwhile)
      const { bytes, pageCount } = await found.time('post_process_ms', () => postProcessPdf(printed, input.pdf, geometry, input.provenance));
      // a paged document's pages, whoever laid them out, are those printed (paged-media.ts leaves the count to here)
      if (found.findings.paged) found.findings.paged.pages = pageCount;
      await found.complete();
      return { bytes, mediaType: 'application/pdf', pageCount, findings: found.findings };
    } catch (error) {
      throw found.attachTo(error);
    }
  }

  async renderImage(input: RenderImageInput): Promise<RenderOutput> {
    prepareImage(input.image, input.pages);
    const found = new FindingsCollector();
    try {
      const captured = await this.#pool.inSandbox(
        { ...this.#renderWork(input, { width: input.image.width, height: input.image.height, device_scale_factor: 1 }, found, { pageWidth: input.image.width, fitRoot: false, scale: 1, fonts: 'page' }), drawn: true },
        (page, session) => found.time('capture_ms', () => captureImage(page, session, input.image, input.pages)),
      );
      // outside the pool slot, as a PDF's post-processing
      const bytes = await found.time('post_process_ms', async () => {
        const encoded = input.image.format === 'png' ? await compressPng(captured) : captured;
        return input.provenance ? stampImage(encoded, input.image.format, input.image, input.provenance) : encoded;
      });
      await found.complete();
      return { bytes, mediaType: `image/${input.image.format}`, findings: found.findings };
    } catch (error) {
      throw found.attachTo(error);
    }
  }

  /** A render's sandbox work: its input, the viewport it is laid out at, and how the report looks at the page. */
  #renderWork(input: RenderPdfInput | RenderImageInput, viewport: EffectiveViewport, found: FindingsCollector, inspect: Omit<PageInspection, 'javascript'>): SandboxOptions {
    return {
      account: input.account,
      html: input.html,
      javascript: input.javascript,
      assets: input.assets,
      timeoutMs: input.timeoutMs ?? this.#renderTimeoutMs,
      bulk: input.bulk,
      logger: input.logger,
      viewport,
      found,
      inspect: this.#inspectPages ? { javascript: input.javascript, ...inspect } : undefined,
    };
  }

  /**
   * Lays out a marked canvas source in a sandbox of its account (network blocked, script off
   * unless asked) at its own size and at each target size, and answers the inline styles that
   * adapt it to each (see canvas/adapt-canvas.ts). Past timeoutMs: RenderError timeout.
   */
  async adaptCanvas(input: AdaptCanvasInput): Promise<CanvasLayout[]> {
    return this.#pool.inSandbox(
      {
        account: input.account,
        html: input.html,
        javascript: input.javascript ?? 'disabled',
        assets: input.assets,
        timeoutMs: input.timeoutMs ?? this.#renderTimeoutMs,
        viewport: { width: input.canvas.width, height: input.canvas.height, device_scale_factor: 1 },
      },
      (page) => adaptCanvas(page, input.canvas, input.targets),
    );
  }

  /**
   * Lays a document out at an output size in a sandbox of its account (network blocked, script
   * off) and measures it: content size, text outside the canvas, boxes that clip their content.
   */
  async measureLayout(input: MeasureLayoutInput): Promise<LayoutFacts> {
    return this.#pool.inSandbox(
      {
        account: input.account,
        html: input.html,
        javascript: 'disabled',
        assets: input.assets,
        timeoutMs: input.timeoutMs ?? this.#renderTimeoutMs,
        viewport: { width: input.viewport.width, height: input.viewport.height, device_scale_factor: 1 },
      },
      (page) => measureLayout(page),
    );
  }

  /** Pool state for health checks and tests. */
  status(): RendererStatus {
    return this.#pool.status();
  }

  /** Refuses queued renders, lets running ones finish, then stops every browser process. */
  close(): Promise<void> {
    return this.#pool.close();
  }
}
