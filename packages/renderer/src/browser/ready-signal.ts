// window.svcReady: a document that draws after load (a chart library, data fetched from an
// inline blob) sets window.svcReady = false before its load event and true once it is done; the
// capture waits for true (docs/document-features.md).
//
// The flag is read from the page's own world, where the document's script may have made it a
// getter that throws, loops or answers false forever. So it is read by polling from here, a
// plain-source evaluate that catches whatever the getter throws; each read and the wait as a
// whole are bounded by the job's deadline, which fails the render (render_timeout, with a
// ready_timeout problem in its findings) and closes the page, ending any read still running.
import type { Page } from 'puppeteer-core';
import { RenderError } from '@svc/contracts';
import { delay } from '@svc/deadline';
import type { FindingsCollector } from '../report/findings-collector.ts';

const READ_READY = `(() => {
  try {
    const value = window.svcReady;
    return value === true ? 'ready' : value === false ? 'waiting' : 'other';
  } catch {
    return 'other';
  }
})()`;

type ReadyState = 'ready' | 'waiting' | 'other';

const FIRST_POLL_MS = 10;
const LONGEST_POLL_MS = 100;

/**
 * With script enabled: if the loaded document has window.svcReady === false, waits until it is
 * true (any other value keeps the wait going; only true ends it). Timed as ready_wait_ms.
 * `timeoutMs` is the job's own limit: the job's deadline, started earlier, always fires first;
 * the bound only makes sure no poll outlives it.
 */
export async function waitForReadySignal(page: Page, found: FindingsCollector, timeoutMs: number): Promise<boolean> {
  if ((await readReady(page)) !== 'waiting') return false;
  await found.wait('ready_wait_ms', { type: 'ready_timeout' }, async () => {
    const started = performance.now();
    let pause = FIRST_POLL_MS;
    for (;;) {
      await delay(pause);
      if ((await readReady(page)) === 'ready') return;
      if (performance.now() - started > timeoutMs) throw new RenderError('timeout', 'render_timeout', `render exceeded ${timeoutMs} ms`);
      pause = Math.min(LONGEST_POLL_MS, Math.round(pause * 1.5));
    }
  });
  return true;
}

async function readReady(page: Page): Promise<ReadyState> {
  const state = await page.evaluate(READ_READY);
  return state === 'ready' || state === 'waiting' ? state : 'other';
}
