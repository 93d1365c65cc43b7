// Ending what a failed job's page still runs. Its context's close ends the renderer process,
// but only once the renderer's main thread takes the close, which a script that never yields
// (an endless loop) does not. Chromium runs these two commands as interrupts of that thread,
// between any two steps of the script: the running script is terminated and no script runs
// in the page again, so the close that follows is taken at once.
// Page.crash ended the renderer outright, but a page crashed that way could take the whole
// browser with it moments later (Chromium 156, a shown page that ran script), failing every
// other job of the browser.
import type { CDPSession } from 'puppeteer-core';

/** Resolves true once Chromium confirms both; false if either is refused (the session is gone). */
export async function stopScript(session: CDPSession): Promise<boolean> {
  const answers = await Promise.allSettled([
    session.send('Emulation.setScriptExecutionDisabled', { value: true }),
    session.send('Runtime.terminateExecution'),
  ]);
  return answers.every((answer) => answer.status === 'fulfilled');
}
