// Layout facts of a document at an output size, measured in the live page: what a reviewer of
// a rendered image cannot always see in it (text past the edge of the canvas, boxes that cut
// their content off). In-page code is plain JavaScript source: it runs with script off.
import type { Page } from 'puppeteer-core';
import type { LayoutFacts } from '@svc/contracts';

/** Elements looked at, at most: a document larger than this is measured in part. */
const maxElements = 20_000;

const MEASURE = `(() => {
  const vw = innerWidth, vh = innerHeight;
  const root = document.documentElement;
  const body = document.body;
  const contentWidth = Math.max(root.scrollWidth, body ? body.scrollWidth : 0);
  const contentHeight = Math.max(root.scrollHeight, body ? body.scrollHeight : 0);
  let textOutside = 0;
  const walker = document.createTreeWalker(body || root, NodeFilter.SHOW_TEXT);
  let seen = 0;
  for (let node = walker.nextNode(); node && seen < ${maxElements}; node = walker.nextNode(), seen++) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) {
      if (rect.width === 0 || rect.height === 0) continue;
      if (rect.right > vw + 1 || rect.bottom > vh + 1 || rect.left < -1 || rect.top < -1) { textOutside++; break; }
    }
  }
  let clippedBoxes = 0;
  const elements = document.querySelectorAll('body *');
  for (let index = 0; index < elements.length && index < ${maxElements}; index++) {
    const el = elements[index];
    const style = getComputedStyle(el);
    const clipsX = style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1;
    const clipsY = style.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1;
    if (clipsX || clipsY) clippedBoxes++;
  }
  return { contentWidth, contentHeight, textOutside, clippedBoxes };
})()`;

export async function measureLayout(page: Page): Promise<LayoutFacts> {
  return (await page.evaluate(MEASURE)) as LayoutFacts;
}
