// The service's own in-page work (image decoding, text fitting) runs in an isolated world of the
// page's main frame: it shares the document's DOM but none of its JavaScript globals, so the
// document's script cannot have replaced the functions that work calls (Array.prototype,
// Element.prototype getters, Intl ...). It runs whether script is enabled for the page or not.
import type { CDPSession } from 'puppeteer-core';
import { RenderError } from '@svc/contracts';

const WORLD_NAME = 'svc-service';

/** Evaluates plain source (see select-canvas-pages.ts) in a fresh isolated world and answers its value; a promise is awaited. */
export async function evaluateIsolated(session: CDPSession, expression: string): Promise<unknown> {
  const { frameTree } = await session.send('Page.getFrameTree');
  const { executionContextId } = await session.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD_NAME });
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', { expression, contextId: executionContextId, awaitPromise: true, returnByValue: true });
  if (exceptionDetails) {
    throw new RenderError('internal_failure', 'in_page_failure', 'the service failed in the page', { cause: new Error(exceptionDetails.exception?.description ?? exceptionDetails.text) });
  }
  return result.value;
}
