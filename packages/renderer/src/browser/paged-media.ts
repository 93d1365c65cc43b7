// Paged media for a PDF whose document opts in with <meta name="svc-paged" content="on">:
// Paged.js 0.4.3 lays the document out into pages (with what Chromium's printer lacks:
// target-counter, string-set, running elements, footnotes, :blank ...) in the service's isolated
// world, and the printer then prints those pages at their CSS size (render-pdf.ts). A document
// that does not opt in is never looked at here beyond a string test on its HTML.
// The engine runs with the document's script disabled too: it needs no DOM timer (those never
// fire in an isolated world of a page without script), only promises, animation frames and idle
// callbacks; and a PDF's page is hidden (sandbox.ts), where those two never come. So the world
// the engine runs in gets its own, which call back at the next task (a message, which comes
// hidden or not, script or not).
// The job's deadline bounds it like any load: a timed-out job's page is stopped
// (stop-script.ts), which ends the engine with the rest of the page's script.
import type { CDPSession } from 'puppeteer-core';
import { callIsolated, evaluateIsolated } from '../page/isolated-world.ts';

/** Whether the HTML may hold the opt-in at all; a document that cannot is not looked at again. */
export const mayOptInToPaged = (html: string): boolean => /svc-paged/i.test(html);

/** Whether the loaded document opts in, and whether the world already holds the engine. Plain source (see select-canvas-pages.ts). */
const PAGED_STATE = `() => ({
  optedIn: Array.from(document.querySelectorAll('meta[name="svc-paged" i]'))
    .some((meta) => (meta.getAttribute('content') || '').trim().toLowerCase() === 'on'),
  loaded: typeof Paged === 'object' && typeof Paged.Previewer === 'function',
})`;

/**
 * Lays the document out into pages: the body goes into a template, the document's style sheets
 * are read by the engine, and its pages replace the body. Answers how many it made.
 */
const PAGINATE = `async () => {
  const flow = await new Paged.Previewer().preview();
  // text the pages added (running heads, footnotes) may use a face nothing asked for yet
  document.documentElement.getBoundingClientRect();
  await document.fonts.ready;
  return flow.total;
}`;

/** requestAnimationFrame and requestIdleCallback of the world, by message; set before the engine reads them. Plain source. */
const FRAMES_BY_MESSAGE = `(() => {
  const channel = new MessageChannel();
  let waiting = [];
  channel.port1.onmessage = () => {
    const due = waiting;
    waiting = [];
    for (const callback of due) callback(performance.now());
  };
  const next = (callback) => {
    waiting.push(callback);
    if (waiting.length === 1) channel.port2.postMessage(null);
    return waiting.length;
  };
  globalThis.requestAnimationFrame = next;
  globalThis.requestIdleCallback = (callback) => next(() => callback({ didTimeout: false, timeRemaining: () => 50 }));
})();`;

let bundle: string | undefined;

/**
 * Paged.js's browser bundle (UMD: defines Paged in the world it runs in), read once per process
 * from the package on disk, found at run time so that no bundler follows it.
 */
function pagedBundle(): string {
  if (bundle === undefined) {
    const { createRequire } = process.getBuiltinModule('node:module');
    const { readFileSync } = process.getBuiltinModule('node:fs');
    const { dirname, join } = process.getBuiltinModule('node:path');
    // the package exports no file of its dist/, so its directory is found from its entry
    let directory = dirname(createRequire(import.meta.url).resolve(['pagedjs'].join('')));
    for (;;) {
      const manifest = join(directory, 'package.json');
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'pagedjs') break;
      } catch {
        // no manifest here: look further up
      }
      const parent = dirname(directory);
      if (parent === directory) throw new Error('the pagedjs package was not found');
      directory = parent;
    }
    bundle = `${FRAMES_BY_MESSAGE}\n${readFileSync(join(directory, 'dist', 'paged.js'), 'utf8')}\n;undefined`;
  }
  return bundle;
}

/**
 * Lays out a loaded document that opts in to paged media; answers the number of pages made, or
 * undefined when the document does not opt in (and nothing was changed). The world keeps the
 * engine once loaded (it lives as long as the page's Window and serves one account), so a
 * sandbox's next opted-in document does not load it again.
 */
export async function paginate(session: CDPSession, html: string): Promise<number | undefined> {
  if (!mayOptInToPaged(html)) return undefined;
  const state = (await callIsolated(session, 'pagedState', PAGED_STATE, null)) as { optedIn: boolean; loaded: boolean };
  if (!state.optedIn) return undefined;
  if (!state.loaded) await evaluateIsolated(session, pagedBundle());
  return (await callIsolated(session, 'paginate', PAGINATE, null)) as number;
}
