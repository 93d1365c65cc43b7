// Text that fits its box (docs/document-features.md): after layout, fonts and the document's
// ready signal, and before capture, elements marked data-svc-fit are fitted to their own box.
//
//  - shrink: the element's font size goes down (binary search, set inline with !important)
//    until its content no longer overflows the box, never below data-svc-fit-min (default
//    DEFAULT_MIN_FONT_PX); nested text sized in em or % follows. Still overflowing at the
//    minimum: a text_fit_minimum problem.
//  - clamp: the element's text is cut, whole characters (grapheme clusters) at a time, at the
//    last place where it and an ellipsis still fit, over as many lines as the box holds.
//
// "Overflows" is what layout says: scrollWidth > clientWidth or scrollHeight > clientHeight, so
// the box needs a size of its own (width and height, or a max-height) to be fitted at all.
// Elements with an unknown data-svc-fit value or an invalid data-svc-fit-min are left alone.
//
// The code runs in an isolated world (page/isolated-world.ts), so the document's script (on or off)
// cannot replace the functions it calls.
import type { CDPSession } from 'puppeteer-core';
import type { ReportProblem } from '@svc/contracts';
import type { FindingsCollector } from '../report/findings-collector.ts';
import { SELECTOR_OF } from '../page/element-selector.ts';
import { callIsolated } from '../page/isolated-world.ts';

/** Font size floor of data-svc-fit="shrink" without data-svc-fit-min, in CSS px. */
export const DEFAULT_MIN_FONT_PX = 8;
/** Elements fitted per render, in document order; the rest are left as they are. */
export const MAX_FITTED_ELEMENTS = 500;
/** Layouts one shrink may try: enough to come within a hundredth of the size. */
const SHRINK_STEPS = 14;

export const FIT_TEXT = `(({ defaultMin, maxElements, shrinkSteps }) => {
  const problems = [];
  const overflows = (element) => element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight;
  const selectorOf = ${SELECTOR_OF};
  const minimumOf = (element) => {
    const written = element.getAttribute('data-svc-fit-min');
    if (written === null) return defaultMin;
    const match = /^\\s*(\\d+(?:\\.\\d+)?)(?:px)?\\s*$/i.exec(written);
    const value = match ? Number(match[1]) : NaN;
    return value > 0 && value <= 1000 ? value : null;
  };
  const fitsAsBox = (element) => {
    if (element.getClientRects().length === 0) return false;
    const display = getComputedStyle(element).display;
    return display !== 'inline' && display !== 'contents';
  };

  const shrink = (element, minimum) => {
    const original = parseFloat(getComputedStyle(element).fontSize);
    const setSize = (size) => element.style.setProperty('font-size', size + 'px', 'important');
    const floor = Math.min(minimum, original);
    setSize(floor);
    if (overflows(element)) {
      problems.push({ type: 'text_fit_minimum', selector: selectorOf(element), font_size: Math.round(floor * 100) / 100 });
      return;
    }
    let fits = floor;
    let overflowing = original;
    for (let step = 0; step < shrinkSteps && overflowing - fits > 0.01; step += 1) {
      const middle = (fits + overflowing) / 2;
      setSize(middle);
      if (overflows(element)) overflowing = middle;
      else fits = middle;
    }
    setSize(Math.floor(fits * 100) / 100);
  };

  const clamp = (element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push({ node, text: node.data });
    const whole = nodes.map((entry) => entry.text).join('');
    const ends = [0];
    for (const { index, segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(whole)) ends.push(index + segment.length);
    const keep = (length) => {
      if (length === whole.length) {
        for (const entry of nodes) entry.node.data = entry.text;
        return;
      }
      // no space left dangling before the ellipsis
      let end = length;
      while (end > 0 && /\\s/.test(whole[end - 1])) end -= 1;
      let start = 0;
      let placed = false;
      for (const entry of nodes) {
        const stop = start + entry.text.length;
        if (placed) entry.node.data = '';
        else if (end <= stop) {
          entry.node.data = entry.text.slice(0, end - start) + '\\u2026';
          placed = true;
        } else entry.node.data = entry.text;
        start = stop;
      }
    };
    keep(0);
    if (nodes.length === 0 || overflows(element)) {
      // content other than text overflows: cutting text cannot help
      keep(whole.length);
      return;
    }
    let fits = 0;
    let overflowing = ends.length - 1;
    while (overflowing - fits > 1) {
      const middle = Math.floor((fits + overflowing) / 2);
      keep(ends[middle]);
      if (overflows(element)) overflowing = middle;
      else fits = middle;
    }
    keep(ends[fits]);
  };

  const marked = [...document.querySelectorAll('[data-svc-fit]')].slice(0, maxElements);
  // innermost first: an outer box then fits what its inner boxes became
  for (const element of marked.reverse()) {
    const mode = element.getAttribute('data-svc-fit').trim().toLowerCase();
    if (mode !== 'shrink' && mode !== 'clamp') continue;
    const minimum = minimumOf(element);
    if (minimum === null || !fitsAsBox(element) || !overflows(element)) continue;
    if (mode === 'shrink') shrink(element, minimum);
    else clamp(element);
  }
  return problems;
})`;

/** What FIT_TEXT is called with. */
export const fitSettings = { defaultMin: DEFAULT_MIN_FONT_PX, maxElements: MAX_FITTED_ELEMENTS, shrinkSteps: SHRINK_STEPS };

/** Fits every marked element of the loaded document and records the shrinks that hit their minimum. */
export async function fitText(session: CDPSession, found: FindingsCollector): Promise<void> {
  const problems = (await callIsolated(session, 'fitText', FIT_TEXT, fitSettings)) as ReportProblem[];
  for (const problem of problems) found.problem(problem);
}
