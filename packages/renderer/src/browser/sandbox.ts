// One job's sandbox from start to end: its tripwire proxy, its fresh browser context (from the
// pool), its isolated page with the content loaded and audited, and the verdict.
import type { Page } from 'puppeteer-core';
import type { AssetResolver, JavascriptMode } from '../types.ts';
import { openIsolatedPage } from './isolation.ts';
import { loadContent } from './load-content.ts';
import { auditResourceHints } from './resource-hints.ts';
import type { Supervisor } from './supervisor.ts';
import { openTripwire } from './tripwire.ts';
import { Violations } from './violations.ts';

export interface SandboxOptions {
  html: string;
  javascript: JavascriptMode;
  assets?: AssetResolver;
  timeoutMs: number;
  /** CSS pixels; set before the content loads because layout and media queries depend on it */
  viewport: { width: number; height: number; deviceScaleFactor: number };
}

/** Loads the HTML in a fresh sandboxed page and runs `capture` on it once it is ready. */
export async function inSandbox<T>(supervisor: Supervisor, options: SandboxOptions, capture: (page: Page) => Promise<T>): Promise<T> {
  const violations = new Violations();
  const tripwire = await openTripwire(() => violations.record('blocked_request', 'connection reached the tripwire proxy'));
  try {
    const context = {
      proxyServer: tripwire.proxyServer,
      // Chromium bypasses proxies for loopback unless told otherwise
      proxyBypassList: ['<-loopback>'],
      downloadBehavior: { policy: 'deny' as const },
    };
    const output = await supervisor.withContext({ timeoutMs: options.timeoutMs, context }, async (browserContext) => {
      const { page, session } = await openIsolatedPage(browserContext, { javascript: options.javascript, assets: options.assets, violations });
      return violations.guard(async () => {
        await page.setViewport(options.viewport);
        await loadContent(page, options.html);
        await auditResourceHints(session, violations);
        return capture(page);
      });
    });
    // a script may still have tried to reach out between the capture and the context closing
    if (violations.first?.category === 'unsafe_asset') throw violations.first;
    return output;
  } finally {
    await tripwire.close();
  }
}
