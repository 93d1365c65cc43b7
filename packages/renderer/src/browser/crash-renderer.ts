// Ending a page's renderer process by force. Closing a job's context asks Chromium to let go
// of the context's processes, and when it kills them depends on what else holds them; a failed
// job's page may be a runaway (an endless loop, a script that never yields), so its renderer
// is ended first, whatever it is doing.
import type { CDPSession } from 'puppeteer-core';

/** Chromium's answer to Page.crash for a page whose renderer is gone already. */
const ALREADY_CRASHED = /already crashed/i;

/**
 * Crashes the renderer process of the page behind `session`. Chromium serves Page.crash on the
 * renderer's IO thread, not its main thread, so script that never yields does not hold it up.
 * Resolves true once Chromium reports the renderer gone (or it was gone already), false if the
 * command is refused (Chromium will not crash a page in the middle of a navigation); it does
 * not resolve while neither happens, so callers bound the wait.
 */
export function crashRenderer(session: CDPSession): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const finish = (ended: boolean) => {
      session.off('Inspector.targetCrashed', crashed);
      resolve(ended);
    };
    const crashed = () => finish(true);
    session.on('Inspector.targetCrashed', crashed);
    // no answer comes for a renderer that crashed: the session ends with it
    session.send('Page.crash').then(
      () => undefined,
      (error: unknown) => finish(error instanceof Error && ALREADY_CRASHED.test(error.message)),
    );
  });
}
