// The service's own in-page work (image decoding, text fitting, the report's look at the page)
// runs in an isolated world of the page's main frame: it shares the document's DOM but none of
// its JavaScript globals, so the document's script cannot have replaced the functions that work
// calls (Array.prototype, Element.prototype getters, Intl ...). It runs whether script is
// enabled for the page or not.
//
// Each Page.createIsolatedWorld makes a new world that lives as long as the page's Window, and a
// sandbox reset without navigation keeps the Window (browser/sandbox.ts): so one world per
// sandbox is made and reused, and made again once a navigation has destroyed it. The world keeps
// the service's own functions between evaluations (compiled once per world, see callIsolated)
// and nothing of any job; a sandbox serves one account. Here in page/, below browser/ and
// report/, which both call into the page.
import type { CDPSession } from 'puppeteer-core';
import { RenderError } from '@svc/contracts';

const WORLD_NAME = 'svc-service';

/** The world's execution context per sandbox session, while it lives. */
const worlds = new WeakMap<CDPSession, number>();

/** Evaluates plain source (see select-canvas-pages.ts) in the page's isolated world and answers its value; a promise is awaited. */
export async function evaluateIsolated(session: CDPSession, expression: string): Promise<unknown> {
  const known = worlds.get(session);
  if (known !== undefined) {
    try {
      return await evaluateIn(session, known, expression);
    } catch (error) {
      if (!(error instanceof Error && error.message.includes('Cannot find context'))) throw error;
      worlds.delete(session);
    }
  }
  const { frameTree } = await session.send('Page.getFrameTree');
  const { executionContextId } = await session.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD_NAME });
  worlds.set(session, executionContextId);
  return evaluateIn(session, executionContextId, expression);
}

async function evaluateIn(session: CDPSession, contextId: number, expression: string): Promise<unknown> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', { expression, contextId, awaitPromise: true, returnByValue: true });
  if (exceptionDetails) {
    throw new RenderError('internal_failure', 'in_page_failure', 'the service failed in the page', { cause: new Error(exceptionDetails.exception?.description ?? exceptionDetails.text) });
  }
  return result.value;
}

/** What a call answers when the world does not hold the function yet (a new world). */
const NOT_DEFINED = '\u0000svc:not-defined';

/**
 * Calls one of the service's page functions (plain source of a function expression) in the
 * isolated world with a JSON argument. The function is compiled once per world and kept on the
 * world's own global object, which the document's script cannot reach: a call sends only its
 * name and argument, not kilobytes of source to compile again.
 */
export async function callIsolated(session: CDPSession, name: string, source: string, argument: unknown): Promise<unknown> {
  const key = JSON.stringify(`svc:${name}`);
  const call = `(() => { const f = globalThis[${key}]; return f ? f(${JSON.stringify(argument)}) : ${JSON.stringify(NOT_DEFINED)}; })()`;
  const answer = await evaluateIsolated(session, call);
  if (answer !== NOT_DEFINED) return answer;
  return evaluateIsolated(session, `(globalThis[${key}] = (${source}))(${JSON.stringify(argument)})`);
}
