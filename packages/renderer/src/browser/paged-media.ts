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
import { maxReportUrlChars } from '@svc/contracts';
import type { FindingsCollector } from '../report/findings-collector.ts';
import { SELECTOR_OF } from '../page/element-selector.ts';
import { callIsolated, evaluateIsolated } from '../page/isolated-world.ts';

/** Whether the HTML may hold the opt-in at all; a document that cannot is not looked at again. */
export const mayOptInToPaged = (html: string): boolean => /svc-paged/i.test(html);

/**
 * CSS only the paged layout provides (css-gcpm-3, css-page-3), as written in the HTML: a string
 * test, so styles of asset:// files and rules a script adds are not looked at. Function names
 * in lower case only, so that script text such as String( or createElement( is not taken for one.
 */
const PAGED_FEATURE = /(?<![\w-])(target-counters?\(|target-text\(|string-set|string\(|running\(|element\(|leader\()|(@footnote|::footnote-(?:call|marker))|float\s*:\s*footnote/;

/**
 * CSS that only the engine lays out: the paged-only features above, and page selectors and page
 * counters Chromium's printer does not follow (:blank, :nth(), a page counter set or reset,
 * crop marks and bleed). Margin boxes, counter(page) and counter(pages), named pages with
 * :first, :left and :right, and break and widow rules Chromium prints by itself.
 */
const ENGINE_ONLY = new RegExp(
  `${PAGED_FEATURE.source}|:blank\\b|:nth\\(|counter-(?:reset|increment|set)\\s*:[^;}]*\\bpages?\\b|(?<![\\w-])(?:marks|bleed)\\s*:`,
);

/** Whether style text uses CSS only the engine lays out (the test each <style> and style attribute of an opted-in document gets). */
export const needsPagedEngine = (css: string): boolean => ENGINE_ONLY.test(css);

/**
 * Whether the loaded document opts in; whether its style needs the engine (the text of its
 * <style> elements and style attributes, as the engine would read them, or a style sheet it
 * links to, which is not read here); and whether the world already holds the engine. Plain
 * source (see select-canvas-pages.ts).
 */
const PAGED_STATE = `() => {
  const engineOnly = new RegExp(${JSON.stringify(ENGINE_ONLY.source)});
  return {
    optedIn: Array.from(document.querySelectorAll('meta[name="svc-paged" i]'))
      .some((meta) => (meta.getAttribute('content') || '').trim().toLowerCase() === 'on'),
    needsEngine: document.querySelector('link[rel~="stylesheet" i]') !== null
      || Array.from(document.querySelectorAll('style')).some((style) => engineOnly.test(style.textContent || ''))
      || Array.from(document.querySelectorAll('[style]')).some((element) => engineOnly.test(element.getAttribute('style') || '')),
    loaded: typeof Paged === 'object' && typeof Paged.Previewer === 'function',
  };
}`;

/**
 * Lays the document out into pages: the body goes into a template, the document's style sheets
 * are read by the engine, and its pages replace the body. Answers what the layout did: the
 * footnotes it placed at the foot of a page, and each target-counter() and
 * target-text() reference (those of the form attr(...), the only ones the engine follows),
 * resolved when its target is in the pages and otherwise named by its element. The references
 * are taken from the style sheets as the engine reads them (before its own handlers rewrite
 * them), and checked in the pages as the engine checks them. An unresolved target-counter()
 * prints 0, an unresolved target-text() nothing.
 */
const PAGINATE = `async () => {
  const previewer = new Paged.Previewer();
  const kinds = new Set(['target-counter', 'target-text']);
  const references = new Map();
  // a selector's part before its first pseudo-class or pseudo-element (where the engine's own
  // handlers cut it), as text; null for one of a form not written out here
  const queryOf = (selector) => {
    let text = '';
    for (const part of selector.type === 'Selector' ? selector.children.toArray() : []) {
      if (part.type === 'PseudoClassSelector' || part.type === 'PseudoElementSelector') break;
      if (part.type === 'TypeSelector') text += part.name;
      else if (part.type === 'ClassSelector') text += '.' + part.name;
      else if (part.type === 'IdSelector') text += '#' + part.name;
      else if (part.type === 'Combinator') text += ' ' + part.name + ' ';
      else if (part.type === 'WhiteSpace') text += ' ';
      else if (part.type === 'AttributeSelector' && part.name.type === 'Identifier') {
        const value = part.value ? (part.value.type === 'String' ? part.value.value : part.value.name) : '';
        text += '[' + part.name.name + (part.matcher || '') + (value || '') + (part.flags ? ' ' + part.flags : '') + ']';
      } else return null;
    }
    return text.trim() || null;
  };
  previewer.polisher.hooks.onContent.register((node, item, list, declaration, rule) => {
    const first = node.children && node.children.first && node.children.first();
    if (!kinds.has(node.name) || !first || first.type !== 'Function' || first.name !== 'attr') return;
    const attribute = first.children.first();
    if (!attribute || attribute.type !== 'Identifier') return;
    for (const selector of rule.ruleNode.prelude.children.toArray()) {
      const query = queryOf(selector);
      if (query) references.set(node.name + ' ' + attribute.name + ' ' + query, { attribute: attribute.name, query });
    }
  });
  await previewer.preview();
  // text the pages added (running heads, footnotes) may use a face nothing asked for yet
  document.documentElement.getBoundingClientRect();
  await document.fonts.ready;
  const pages = document.querySelector('.pagedjs_pages') || document.body;
  const selectorOf = ${SELECTOR_OF};
  let resolved = 0;
  const unresolved = [];
  for (const { attribute, query } of references.values()) {
    let elements;
    try {
      elements = pages.querySelectorAll(query);
    } catch {
      continue;
    }
    for (const element of elements) {
      // a part carried over to the next page is the same element
      if (element.hasAttribute('data-split-from')) continue;
      const target = element.getAttribute(attribute) || '';
      let found = null;
      try {
        found = target.startsWith('#') && target.length > 1 ? pages.querySelector('#' + CSS.escape(decodeURIComponent(target.slice(1)))) : null;
      } catch {
        found = null;
      }
      if (found) resolved += 1;
      else unresolved.push({ selector: selectorOf(element), target: target.slice(0, ${maxReportUrlChars}) + (target.length > ${maxReportUrlChars} ? '…' : '') });
    }
  }
  return {
    footnotes: pages.querySelectorAll('.pagedjs_footnote_area [data-note="footnote"]:not([data-split-from])').length,
    references: resolved,
    unresolved,
  };
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

/** The first paged-only feature the HTML uses (target-counter(), string-set ...), or undefined. */
export function pagedFeatureOf(html: string): string | undefined {
  const match = PAGED_FEATURE.exec(html);
  if (!match) return undefined;
  const feature = match[1] ?? match[2] ?? 'float: footnote';
  return feature.endsWith('(') ? `${feature})` : feature;
}

/** A PDF whose document does not opt in: a paged-only feature it uses is a problem (Chromium ignores it). */
export function noteFeatureWithoutOptIn(html: string, found: FindingsCollector): void {
  const feature = pagedFeatureOf(html);
  if (feature) found.problem({ type: 'paged_feature_without_opt_in', feature });
}

/**
 * What the engine's base style sheet does to a printed document's body (no margin of its own:
 * the page's margins are the only ones), put first so that the document's own rules win as they
 * do over the engine's. Plain source.
 */
const ENGINE_BASE = `() => {
  const style = document.createElement('style');
  style.textContent = '@media print { body { margin: 0; padding: 0; } }';
  document.head.prepend(style);
}`;

/** The report's page count of a paged document, which the renderer sets from the printed file. */
const PAGES_FROM_THE_PRINT = 0;

interface Layout {
  footnotes: number;
  references: number;
  unresolved: { selector: string; target: string }[];
}

/** How an opted-in document was laid out: by the engine (its pages made, printed edge to edge) or by Chromium's printer with the engine's page defaults. */
export interface PagedLayout {
  engine: boolean;
}

/**
 * Lays out a loaded document that opts in to paged media; answers how, or undefined when the
 * document does not opt in (and nothing was changed). A document whose style uses nothing only
 * the engine lays out (ENGINE_ONLY) is left to Chromium's printer, which prints it as the engine
 * would (the engine's default page, the document's @page rules winning) in a fraction of the
 * time. What the layout did goes into the findings (the report's paged part, whose page count
 * the printed file gives; a problem for each unresolved reference). The world keeps the engine
 * once loaded (it lives as long as the page's Window and serves one account), so a sandbox's
 * next document that needs it does not load it again.
 */
export async function paginate(session: CDPSession, html: string, found: FindingsCollector): Promise<PagedLayout | undefined> {
  if (!mayOptInToPaged(html)) return undefined;
  const state = (await callIsolated(session, 'pagedState', PAGED_STATE, null)) as { optedIn: boolean; needsEngine: boolean; loaded: boolean };
  if (!state.optedIn) {
    noteFeatureWithoutOptIn(html, found);
    return undefined;
  }
  if (!state.needsEngine) {
    await callIsolated(session, 'pagedBase', ENGINE_BASE, null);
    found.findings.paged = { pages: PAGES_FROM_THE_PRINT, footnotes: 0, references: 0, unresolved: 0 };
    return { engine: false };
  }
  if (!state.loaded) await evaluateIsolated(session, pagedBundle());
  const layout = (await callIsolated(session, 'paginate', PAGINATE, null)) as Layout;
  found.findings.paged = { pages: PAGES_FROM_THE_PRINT, footnotes: layout.footnotes, references: layout.references, unresolved: layout.unresolved.length };
  for (const { selector, target } of layout.unresolved) found.problem({ type: 'unresolved_reference', selector, target });
  return { engine: true };
}
