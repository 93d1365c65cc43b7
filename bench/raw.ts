// Raw puppeteer on the service's browser binary: the baseline the service is measured against.
import { DEFAULT_CHROMIUM_PATH, headlessMode } from '@svc/renderer';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { Fixture } from './fixtures.ts';
import { cpuMs, processTree } from './processes.ts';

/**
 * Raw puppeteer on the service's browser binary. `warm`: one page per concurrent render, reused
 * (the baseline of the performance targets). `fresh`: a new browser context per render, closed afterwards, which
 * is the isolation the service gives every job; the gap between the two is the price of that
 * isolation alone, before any HTTP, queue or storage.
 */
export async function rawRenderer(concurrency: number, mode: 'warm' | 'fresh') {
  const executablePath = process.env.SVC_CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
  const browser: Browser = await puppeteer.launch({
    executablePath,
    headless: headlessMode(executablePath),
    // the same performance flags as the service's pool: pages rendering side by side must not be
    // throttled as background tabs
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling',
      '--disable-backgrounding-occluded-windows',
    ],
  });
  const openPage = async () => {
    // one context per page: a screenshot needs its page in front, and each context has its own window
    const page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 720 });
    return page;
  };
  const free: Page[] = [];
  if (mode === 'warm') for (let index = 0; index < concurrency; index++) free.push(await openPage());
  const capture = async (page: Page, fixture: Fixture) => {
    await page.setContent(fixture.html, { waitUntil: 'load' });
    if (fixture.kind === 'pdf') await page.pdf({ format: 'A4', printBackground: true });
    else await page.screenshot({ type: 'png' });
  };
  return {
    async render(fixture: Fixture) {
      if (mode === 'fresh') {
        const page = await openPage();
        try {
          await capture(page, fixture);
        } finally {
          await page.browserContext().close();
        }
        return;
      }
      const page = free.pop() as Page;
      try {
        await capture(page, fixture);
      } finally {
        free.push(page);
      }
    },
    /** CPU its browser's processes (ended ones included) have used so far, in ms */
    /** the browser's process id */
    pid: browser.process()?.pid as number,
    cpu: () => cpuMs(processTree([browser.process()?.pid as number])),
    close: () => browser.close(),
  };
}

