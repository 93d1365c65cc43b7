// A sandbox from start to end: its tripwire proxy, its browser context and its isolated page
// (opened before the first job arrives, see sandbox-stock.ts), one job's content loaded and
// audited, the verdict, and the reset that lets the same account's next job use it. The stock
// opens each with Sandbox.open and calls the rest on the object; the job runner hands it to
// the job's work (browser-pool.ts), which runs the job's content with run().
import type { Browser, BrowserContext, CDPSession, Page } from 'puppeteer-core';
import type { AssetResolver, EffectiveViewport, JavascriptMode } from '@svc/contracts';
import { viewportDefaults } from '@svc/rules';
import type { FindingsCollector } from '../report/findings-collector.ts';
import { finishLook, lookAtContent, type PageInspection } from '../report/inspect-page.ts';
import type { RendererLogger } from '../types.ts';
import { enableJavascript, openIsolatedPage } from './isolation.ts';
import type { JobProgress } from './job-runner.ts';
import { loadContent, type PageQuestion } from './load-content.ts';
import { auditResourceHints, readResourceHints } from './resource-hints.ts';
import { stopScript } from './stop-script.ts';
import { openTripwire, type Tripwire } from './tripwire.ts';
import { type JobFindings, Violations } from './violations.ts';

export interface SandboxOptions {
  /** the isolation boundary; omitted: the sandbox serves this job only */
  account?: string;
  html: string;
  javascript: JavascriptMode;
  assets?: AssetResolver;
  timeoutMs: number;
  /** CSS pixels; set before the content loads because layout and media queries depend on it */
  viewport: EffectiveViewport;
  /** waits for a pool slot behind every job that is not bulk */
  bulk?: boolean;
  /** where the job's lines go (carrying its id); omitted: the renderer's logger */
  logger?: RendererLogger;
  /** collects the render report's findings; omitted for work that has no report (adapt, layout facts) */
  found?: FindingsCollector;
  /** how the loaded page is inspected for the report (with found); omitted: not inspected */
  inspect?: PageInspection;
  /** what the capture asks of the finished document, answered with the load when it can be (load-content.ts) */
  question?: PageQuestion;
  /** the capture is a picture of the page as drawn (an image), so the page is shown while it loads; see showPage */
  drawn?: boolean;
}

/** What a job makes of its loaded page (with the sandbox's DevTools session, and the answer to its question). */
export type Capture<T> = (page: Page, session: CDPSession, answer: unknown) => Promise<T>;

/** Most jobs ask for the default viewport, so a sandbox is made ready with it already set. */
const PREPARED_VIEWPORT: EffectiveViewport = viewportDefaults;

/** What Sandbox.open makes ready, handed to the object it opens. */
interface OpenedParts {
  tripwire: Tripwire;
  context: BrowserContext;
  page: Page;
  session: CDPSession;
  /** the page's window, for showPage */
  windowId: number;
  violations: Violations;
  assets: { current?: AssetResolver };
  found: JobFindings;
}

/**
 * One sandbox: a fresh browser context (never used by another account) whose only proxy is its
 * own tripwire, and one isolated page in it. Serves the jobs of one account, one at a time.
 */
export class Sandbox {
  /** the sandbox's browser context: the stock closes it (a context that does not close condemns its browser) */
  readonly context: BrowserContext;
  readonly #tripwire: Tripwire;
  readonly #page: Page;
  readonly #session: CDPSession;
  readonly #windowId: number;
  readonly #violations: Violations;
  readonly #assets: { current?: AssetResolver };
  readonly #found: JobFindings;
  #viewport = PREPARED_VIEWPORT;
  /** whether script has run in the page's current Window (a job with javascript enabled) */
  #scripted = false;
  /** whether the document still holds the last job's content, left for the next load or for tidy() */
  #holdsContent = false;
  /** whether the page's window is shown (see showPage); a sandbox is made ready hidden */
  #shown = false;

  private constructor(parts: OpenedParts) {
    this.context = parts.context;
    this.#tripwire = parts.tripwire;
    this.#page = parts.page;
    this.#session = parts.session;
    this.#windowId = parts.windowId;
    this.#violations = parts.violations;
    this.#assets = parts.assets;
    this.#found = parts.found;
  }

  /**
   * Opens a sandbox ahead of its job: a tripwire, a fresh context whose only proxy is that
   * tripwire, and an isolated blank page with script off, hidden. Nothing of any job is in it yet.
   */
  static async open(browser: Browser, logger: RendererLogger): Promise<Sandbox> {
    const found: JobFindings = {};
    const violations = new Violations(logger, found);
    const tripwire = await openTripwire(() => violations.record('blocked_request', { layer: 'tripwire', kind: 'connection' }));
    try {
      const context = await browser.createBrowserContext({
        proxyServer: tripwire.proxyServer,
        // Chromium bypasses proxies for loopback unless told otherwise
        proxyBypassList: ['<-loopback>'],
        downloadBehavior: { policy: 'deny' },
      });
      const assets: { current?: AssetResolver } = {};
      try {
        // hidden from the start: most jobs print a PDF without script, which needs no drawing, and
        // a page opened shown draws its blank document first
        const { page, session } = await openIsolatedPage(context, { javascript: 'disabled', assets, violations, found });
        const [{ windowId }] = await Promise.all([session.send('Browser.getWindowForTarget'), setViewport(page, PREPARED_VIEWPORT)]);
        return new Sandbox({ tripwire, context, page, session, windowId, violations, assets, found });
      } catch (error) {
        await context.close().catch(() => undefined);
        throw error;
      }
    } catch (error) {
      await tripwire.close();
      throw error;
    }
  }

  /**
   * Loads one job's HTML in the page and runs `capture` on it once it is ready. With a report's
   * look (`found` and `inspect`), the capture goes to `handOff` as soon as it is made and the
   * look at the page follows here meanwhile; the run ends when the look has.
   */
  run<T>(options: SandboxOptions, progress: JobProgress, capture: Capture<T>, handOff: (captured: T) => void): Promise<T> {
    const page = this.#page;
    const session = this.#session;
    const violations = this.#violations;
    const look = options.found && options.inspect ? { found: options.found, inspection: options.inspect } : undefined;
    violations.renew(options.logger);
    this.#assets.current = options.assets;
    // what the page still does after its job ended belongs to no report
    this.#found.current = options.found;
    const unsetFindings = () => (this.#found.current = undefined);
    return violations.guard(async () => {
      // the last job's document goes before script may run or the layout changes (loading alone replaces it)
      if (this.#holdsContent && (options.javascript === 'enabled' || !sameViewport(this.#viewport, options.viewport))) await this.#emptyDocument();
      this.#holdsContent = true;
      // shown before any script runs: script sees a visible page, as in a browser's front tab
      const shown = options.javascript === 'enabled' || options.drawn === true;
      if (this.#shown !== shown) await this.#showPage(shown);
      if (options.javascript === 'enabled') {
        this.#scripted = true;
        await enableJavascript(page, violations);
      }
      if (!sameViewport(this.#viewport, options.viewport)) {
        await setViewport(page, options.viewport);
        this.#viewport = options.viewport;
      }
      progress.loadingContent();
      const loaded = await loadContent(page, options.html, options.found, { javascript: options.javascript, timeoutMs: options.timeoutMs, session, question: options.question });
      auditResourceHints(loaded.hints ?? (await readResourceHints(session)), violations);
      // the report's look at the content changes nothing in the page: it runs beside the capture
      // (sent before the capture starts)
      const content = look ? lookAtContent(session, look.inspection) : null;
      const captured = await capture(page, session, loaded.answer);
      // after the capture: what the rest of the look changes (a PDF's root laid out at the
      // printable width) costs no layout the capture would have to undo, and the reset
      // discards the document
      if (look) {
        handOff(captured);
        await finishLook(session, look.found, look.inspection, content!, captured);
      }
      return captured;
    }).finally(unsetFindings);
  }

  /**
   * Returns a sandbox whose job ended well to its prepared state for the same account's next
   * job, and checks the result; false when anything of the job could still be observed.
   *
   * After a job that ran script, the page navigates to about:blank: a new Document and Window,
   * so the job's DOM, globals, timers and intervals, blob: URLs and BroadcastChannels end with
   * the old one (the back/forward cache is off, see launch-flags.ts); document.open() would keep
   * the Window and its timers. After a job with script off nothing could touch the Window (no
   * globals, timers, name, history, popups or workers without script): its loads are stopped
   * and its document is left in place, unless it holds a <meta http-equiv> (a refresh may be
   * pending), which is navigated away as after script. What is left is a document that nothing
   * runs in: the account's next job replaces it as it loads its own (setContent opens the
   * document anew), and a sandbox that stays idle is emptied by tidy(), so that an idle
   * sandbox holds no document; one evicted or closed first is never emptied at all. Emptying
   * costs the browser about as much as the rest of the reset (a blank document built and laid
   * out); a navigation costs several times more. Storage needs no reset either way: the content
   * ran in an opaque origin, where every storage API refuses.
   */
  async reset(): Promise<boolean> {
    const page = this.#page;
    // something the job left running (a popup, a worker, a late request) disqualifies the sandbox
    const strayTargets = () => this.context.targets().some((target) => target !== page.target());
    if (this.#violations.first || strayTargets() || page.isClosed()) return false;
    this.#assets.current = undefined;
    const keepsViewport = sameViewport(this.#viewport, PREPARED_VIEWPORT);
    // a document that stays would be laid out again at the prepared viewport for nothing
    let state = this.#scripted || !keepsViewport ? await this.#emptyDocument() : ((await page.evaluate(STOP_AND_DESCRIBE)) as PageState | null);
    state ??= await this.#navigateAway();
    if (!keepsViewport) {
      await setViewport(page, PREPARED_VIEWPORT);
      this.#viewport = PREPARED_VIEWPORT;
    }
    return (this.#holdsContent ? untouched(state) : blank(state)) && this.#violations.first === null && !strayTargets();
  }

  /**
   * Empties the document a reset left in a sandbox that has stayed idle since (see reset), and
   * checks that the page is blank; false when it is not.
   */
  async tidy(): Promise<boolean> {
    if (!this.#holdsContent) return true;
    const state = await this.#emptyDocument();
    return blank(state) && this.#violations.first === null;
  }

  /**
   * Ends by force what the page of a failed job still runs (see stop-script.ts); true once
   * Chromium confirmed it.
   */
  halt(): Promise<boolean> {
    return stopScript(this.#session);
  }

  /** Frees what is not part of the context (its tripwire); runs after the context is closed. */
  dispose(): Promise<void> {
    return this.#tripwire.close();
  }

  /** Leaves the page blank: the document emptied in place after a job without script, else a navigation to about:blank. */
  async #emptyDocument(): Promise<PageState> {
    const state = this.#scripted ? null : ((await this.#page.evaluate(EMPTY_AND_DESCRIBE)) as PageState | null);
    this.#holdsContent = false;
    return state ?? this.#navigateAway();
  }

  /** A new Document and Window, script off again, one history entry and no name. */
  async #navigateAway(): Promise<PageState> {
    const page = this.#page;
    await page.setJavaScriptEnabled(false);
    await page.goto('about:blank', { waitUntil: 'load', timeout: 0 });
    await this.#session.send('Page.resetNavigationHistory');
    this.#scripted = false;
    this.#holdsContent = false;
    // window.name belongs to the browsing context, not the document: it outlives the navigation
    return (await page.evaluate(CLEAR_AND_DESCRIBE)) as PageState;
  }

  /**
   * Shows or hides the page by its window's state (minimized is hidden). A shown page is drawn
   * after every change, for nobody when the job prints a PDF: a kept sandbox would draw its last
   * document once more, a new one its first (raw puppeteer's fresh context closes before either).
   * So a page stays hidden unless its job captures a picture of it or runs script (which may wait
   * for animation frames, which a hidden page never gets, or read document.visibilityState).
   * Without script nothing in the document can tell: its CSS animations are settled before the
   * capture either way (load-content.ts), images and fonts load alike, and printing decodes
   * the images it draws and lays the document out itself.
   */
  async #showPage(shown: boolean): Promise<void> {
    await this.#session.send('Browser.setWindowBounds', { windowId: this.#windowId, bounds: { windowState: shown ? 'normal' : 'minimized' } });
    this.#shown = shown;
  }
}

/** What a reset reads back: a blank page, one history entry, no name. */
interface PageState {
  url: string;
  history: number;
  name: string;
  elements: number;
}

/** Reads the page's state after a reset; plain source, as it runs with script off (see load-content.ts). */
const DESCRIBE = `{ url: location.href, history: history.length, name: window.name, elements: document.getElementsByTagName('*').length }`;
const CLEAR_AND_DESCRIBE = `(() => {
  window.name = '';
  return ${DESCRIBE};
})()`;

/**
 * Empties a document in which no script ran: stops whatever it still loads, then replaces it
 * with an empty one (document.open drops the DOM and its frames, whose timers and refreshes
 * end with them), and describes the result. A <meta http-equiv> in the document itself may
 * have scheduled a refresh of the page that outlives document.open(): such a page answers
 * null and is navigated instead. Plain source, run with script off.
 */
const EMPTY_AND_DESCRIBE = `(() => {
  if (document.querySelector('meta[http-equiv]')) return null;
  window.stop();
  document.open();
  document.close();
  return ${DESCRIBE};
})()`;

/** EMPTY_AND_DESCRIBE without the emptying: the loads stopped, the document left as it is. */
const STOP_AND_DESCRIBE = `(() => {
  if (document.querySelector('meta[http-equiv]')) return null;
  window.stop();
  return ${DESCRIBE};
})()`;

/** The browsing context as a reset leaves it: at about:blank, one history entry, no name. */
function untouched(state: PageState): boolean {
  return state.url === 'about:blank' && state.history === 1 && state.name === '';
}

/** ... with an empty document (html, head and body at most). */
function blank(state: PageState): boolean {
  return untouched(state) && state.elements <= 3;
}

function setViewport(page: Page, viewport: EffectiveViewport): Promise<void> {
  return page.setViewport({ width: viewport.width, height: viewport.height, deviceScaleFactor: viewport.device_scale_factor });
}

function sameViewport(a: EffectiveViewport, b: EffectiveViewport): boolean {
  return a.width === b.width && a.height === b.height && a.device_scale_factor === b.device_scale_factor;
}
