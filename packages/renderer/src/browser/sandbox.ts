// A sandbox from start to end: its tripwire proxy, its browser context and its isolated page
// (made ready before the first job arrives, see sandbox-stock.ts), one job's content loaded and
// audited, the verdict, and the reset that lets the same account's next job use it.
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import type { AssetResolver, EffectiveViewport, JavascriptMode } from '@svc/contracts';
import { viewportDefaults } from '@svc/rules';
import type { FindingsCollector } from '../report/findings-collector.ts';
import type { RendererLogger } from '../types.ts';
import type { BrowserPool } from './browser-pool.ts';
import { enableJavascript, openIsolatedPage } from './isolation.ts';
import { loadContent, type PageQuestion } from './load-content.ts';
import { auditResourceHints, readResourceHints } from './resource-hints.ts';
import type { Prepared } from './sandbox-stock.ts';
import { openTripwire } from './tripwire.ts';
import { stopScript } from './stop-script.ts';
import { type JobFindings, Violations } from './violations.ts';
import { finishLook, lookAtContent, type PageInspection } from '../report/inspect-page.ts';

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

/** Most jobs ask for the default viewport, so a sandbox is made ready with it already set. */
const PREPARED_VIEWPORT: EffectiveViewport = viewportDefaults;

interface SandboxParts {
  page: Page;
  viewport: EffectiveViewport;
  /** whether script has run in the page's current Window (a job with javascript enabled) */
  scripted: boolean;
  /** whether the document still holds the last job's content, left for the next load or for tidySandbox */
  holdsContent: boolean;
  /** whether the page's window is shown (see showPage); a sandbox is made ready hidden */
  shown: boolean;
  /** the page's window, for showPage */
  windowId: number;
  session: CDPSession;
  violations: Violations;
  assets: { current?: AssetResolver };
  found: JobFindings;
}

/** Jobs without an account each get a tenant of their own, so their sandbox is never reused. */
let unsharedJobs = 0;

/**
 * Opens a sandbox ahead of its job: a tripwire, a fresh context whose only proxy is that
 * tripwire, and an isolated blank page with script off, hidden. Nothing of any job is in it yet.
 */
export async function prepareSandbox(browser: Browser, logger: RendererLogger): Promise<Prepared<SandboxParts>> {
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
      const parts: SandboxParts = { page, session, violations, assets, found, viewport: PREPARED_VIEWPORT, scripted: false, holdsContent: false, shown: false, windowId };
      return { context, extra: parts, halt: () => stopScript(session), dispose: () => tripwire.close() };
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
 * Loads the HTML in a fresh sandboxed page and runs `capture` on it (and the sandbox's own
 * DevTools session, and the answer to its question when loading asked it) once it is ready.
 * With a report's look (`found` and `inspect`), the capture is answered as soon as it is made
 * and the look at the page follows in the sandbox meanwhile, so the caller's post-processing
 * and the look overlap: `found.complete()` tells when it ended.
 */
export async function inSandbox<T>(
  pool: BrowserPool,
  options: SandboxOptions,
  capture: (page: Page, session: CDPSession, answer: unknown) => Promise<T>,
): Promise<T> {
  const tenant = options.account ?? `unshared:${(unsharedJobs += 1)}`;
  const look = options.found && options.inspect ? { found: options.found, inspection: options.inspect } : undefined;
  let handOff: ((captured: T) => void) | undefined;
  const handedOff = new Promise<T>((resolve) => (handOff = resolve));
  const run = pool.run({ timeoutMs: options.timeoutMs, tenant, bulk: options.bulk, logger: options.logger }, async (prepared, progress) => {
    const parts = prepared.extra as SandboxParts;
    const { page, session, violations, assets } = parts;
    violations.renew(options.logger);
    assets.current = options.assets;
    // what the page still does after its job ended belongs to no report
    parts.found.current = options.found;
    const unsetFindings = () => (parts.found.current = undefined);
    return violations.guard(async () => {
      // the last job's document goes before script may run or the layout changes (loading alone replaces it)
      if (parts.holdsContent && (options.javascript === 'enabled' || !sameViewport(parts.viewport, options.viewport))) await emptyDocument(parts);
      parts.holdsContent = true;
      // shown before any script runs: script sees a visible page, as in a browser's front tab
      const shown = options.javascript === 'enabled' || options.drawn === true;
      if (parts.shown !== shown) await showPage(parts, shown);
      if (options.javascript === 'enabled') {
        parts.scripted = true;
        await enableJavascript(page, violations);
      }
      if (!sameViewport(parts.viewport, options.viewport)) {
        await setViewport(page, options.viewport);
        parts.viewport = options.viewport;
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
        handOff!(captured);
        await finishLook(session, look.found, look.inspection, content!, captured);
      }
      return captured;
    }).finally(unsetFindings);
  });
  if (!look) return run;
  look.found.addingFrom(run);
  return Promise.race([handedOff, run]);
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
 * document anew), and a sandbox that stays idle is emptied by tidySandbox, so that an idle
 * sandbox holds no document; one evicted or closed first is never emptied at all. Emptying
 * costs the browser about as much as the rest of the reset (a blank document built and laid
 * out); a navigation costs several times more. Storage needs no reset either way: the content
 * ran in an opaque origin, where every storage API refuses.
 */
export async function resetSandbox(prepared: Prepared): Promise<boolean> {
  const parts = prepared.extra as SandboxParts;
  const { page, violations } = parts;
  // something the job left running (a popup, a worker, a late request) disqualifies the sandbox
  const strayTargets = () => prepared.context.targets().some((target) => target !== page.target());
  if (violations.first || strayTargets() || page.isClosed()) return false;
  parts.assets.current = undefined;
  const keepsViewport = sameViewport(parts.viewport, PREPARED_VIEWPORT);
  // a document that stays would be laid out again at the prepared viewport for nothing
  let state = parts.scripted || !keepsViewport ? await emptyDocument(parts) : ((await page.evaluate(STOP_AND_DESCRIBE)) as PageState | null);
  state ??= await navigateAway(parts);
  if (!keepsViewport) {
    await setViewport(page, PREPARED_VIEWPORT);
    parts.viewport = PREPARED_VIEWPORT;
  }
  return (parts.holdsContent ? untouched(state) : blank(state)) && violations.first === null && !strayTargets();
}

/**
 * Empties the document a reset left in a sandbox that has stayed idle since (see resetSandbox),
 * and checks that the page is blank; false when it is not.
 */
export async function tidySandbox(prepared: Prepared): Promise<boolean> {
  const parts = prepared.extra as SandboxParts;
  if (!parts.holdsContent) return true;
  const state = await emptyDocument(parts);
  return blank(state) && parts.violations.first === null;
}

/** The browsing context as a reset leaves it: at about:blank, one history entry, no name. */
function untouched(state: PageState): boolean {
  return state.url === 'about:blank' && state.history === 1 && state.name === '';
}

/** ... with an empty document (html, head and body at most). */
function blank(state: PageState): boolean {
  return untouched(state) && state.elements <= 3;
}

/** Leaves the page blank: the document emptied in place after a job without script, else a navigation to about:blank. */
async function emptyDocument(parts: SandboxParts): Promise<PageState> {
  const state = parts.scripted ? null : ((await parts.page.evaluate(EMPTY_AND_DESCRIBE)) as PageState | null);
  parts.holdsContent = false;
  return state ?? navigateAway(parts);
}

/** A new Document and Window, script off again, one history entry and no name. */
async function navigateAway(parts: SandboxParts): Promise<PageState> {
  const { page, session } = parts;
  await page.setJavaScriptEnabled(false);
  await page.goto('about:blank', { waitUntil: 'load', timeout: 0 });
  await session.send('Page.resetNavigationHistory');
  parts.scripted = false;
  parts.holdsContent = false;
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
async function showPage(parts: SandboxParts, shown: boolean): Promise<void> {
  await parts.session.send('Browser.setWindowBounds', { windowId: parts.windowId, bounds: { windowState: shown ? 'normal' : 'minimized' } });
  parts.shown = shown;
}

function setViewport(page: Page, viewport: EffectiveViewport): Promise<void> {
  return page.setViewport({ width: viewport.width, height: viewport.height, deviceScaleFactor: viewport.device_scale_factor });
}

function sameViewport(a: EffectiveViewport, b: EffectiveViewport): boolean {
  return a.width === b.width && a.height === b.height && a.device_scale_factor === b.device_scale_factor;
}
