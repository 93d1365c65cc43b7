// The renderer's own options and status. What it renders and answers (the render engine's
// contract: options as stored with the job, inputs, outputs, RenderError) is @svc/contracts'
// render-engine.ts, which Renderer implements.
import type { WorkLogger } from '@svc/contracts';

/**
 * Where the renderer reports what an operator should know: browser launches, restarts and
 * crashes, timeouts, sandbox trips. Structural, so the worker passes its own logger and the
 * renderer does not depend on core. Fields never carry customer content (HTML,
 * URLs, data): only pids, counts, codes and fixed category names.
 */
export type RendererLogger = WorkLogger;

export interface RendererOptions {
  /** The worker passes SVC_CHROMIUM_PATH's; default Debian's headless shell (DEFAULT_CHROMIUM_PATH) */
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
  /**
   * Look at each loaded page for the render report (script, layout, glyphs, fonts, failed
   * resources); default true. Timing and blocked requests are recorded either way. Off only to
   * measure what the look costs (the benchmark's report cell).
   */
  inspectPages?: boolean;
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
