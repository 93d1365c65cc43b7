// Canvas page selection inside the live document (after scripts, if enabled, have run).
// In-page code is plain JavaScript source: functions handed to page.evaluate are serialized
// with toString(), and transpilers may add helpers to them that do not exist in the page.
import type { Page } from 'puppeteer-core';
import { RenderError } from '@svc/contracts';

/**
 * Prints only the chosen canvas pages, in the requested order, each starting a new sheet.
 * The chosen elements swap into the document positions the chosen set occupies, so they keep
 * the ancestors (and therefore the CSS) that canvas pages are laid out in; everything else
 * beside them on the way up to <body> is hidden.
 */
const ARRANGE_FOR_PRINT = `(ids) => {
  const first = new Map();
  for (const element of document.querySelectorAll('[data-svc-page]')) {
    const id = element.getAttribute('data-svc-page');
    if (!first.has(id)) first.set(id, element);
  }
  const missing = ids.filter((id) => !first.has(id));
  if (missing.length > 0) return missing;
  const chosen = ids.map((id) => first.get(id));
  const inDocumentOrder = [...document.querySelectorAll('[data-svc-page]')].filter((element) => chosen.includes(element));
  const slots = inDocumentOrder.map((element) => {
    const slot = document.createComment('svc-page-slot');
    element.replaceWith(slot);
    return slot;
  });
  slots.forEach((slot, index) => slot.replaceWith(chosen[index]));
  const keep = new Set();
  for (const element of chosen) for (let node = element; node; node = node.parentElement) keep.add(node);
  for (const element of chosen) {
    for (let node = element; node.parentElement; node = node.parentElement) {
      for (const sibling of node.parentElement.children) {
        if (!keep.has(sibling) && sibling.style) sibling.style.setProperty('display', 'none', 'important');
      }
    }
  }
  chosen.forEach((element, index) => {
    element.style.setProperty('break-before', index === 0 ? 'auto' : 'page', 'important');
    element.style.setProperty('break-inside', 'avoid', 'important');
  });
  return [];
}`;

/** The page's box in document coordinates, for a screenshot of just that page. */
const LOCATE = `(id) => {
  const element = [...document.querySelectorAll('[data-svc-page]')].find((candidate) => candidate.getAttribute('data-svc-page') === id);
  if (!element) return null;
  const box = element.getBoundingClientRect();
  return { x: box.left + window.scrollX, y: box.top + window.scrollY };
}`;

export async function arrangeForPrint(page: Page, ids: readonly string[]): Promise<void> {
  const missing = await page.evaluate(`(${ARRANGE_FOR_PRINT})(${JSON.stringify(ids)})`);
  if (Array.isArray(missing) && missing.length > 0) throw unknownPage();
}

export async function locateCanvasPage(page: Page, id: string): Promise<{ x: number; y: number }> {
  const origin = (await page.evaluate(`(${LOCATE})(${JSON.stringify(id)})`)) as { x: number; y: number } | null;
  if (!origin) throw unknownPage();
  // whole pixels: a fractional clip would be rounded by the screenshot into an off-by-one size
  return { x: Math.round(origin.x), y: Math.round(origin.y) };
}

function unknownPage(): RenderError {
  return new RenderError('invalid_input', 'unknown_page', 'a requested page id is not in the document');
}

/** Requested ids must be distinct; whether they exist is checked against the live document. */
export function checkPageSelection(ids: readonly string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new RenderError('invalid_input', 'duplicate_page', 'a page id is listed twice');
    seen.add(id);
  }
}
