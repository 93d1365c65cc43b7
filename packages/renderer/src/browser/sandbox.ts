// One job's sandbox from start to end: its tripwire proxy, its fresh browser context and its
// isolated page (made ready before the job arrives, see Supervisor), the content loaded and
// audited, and the verdict.
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import type { AssetResolver, JavascriptMode } from '../types.ts';
import { enableJavascript, openIsolatedPage } from './isolation.ts';
import { loadContent } from './load-content.ts';
import { auditResourceHints } from './resource-hints.ts';
import type { Prepared, Supervisor } from './supervisor.ts';
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

type ViewportSize = SandboxOptions['viewport'];

/** Most jobs ask for the default viewport, so a sandbox is made ready with it already set. */
const PREPARED_VIEWPORT: ViewportSize = { width: 1280, height: 720, deviceScaleFactor: 1 };

interface SandboxParts {
  page: Page;
  viewport: ViewportSize;
  session: CDPSession;
  violations: Violations;
  assets: { current?: AssetResolver };
}

/**
 * Opens a sandbox ahead of its job: a tripwire, a fresh context whose only proxy is that
 * tripwire, and an isolated blank page with script off. Nothing of any job is in it yet.
 */
export async function prepareSandbox(browser: Browser): Promise<Prepared<SandboxParts>> {
  const violations = new Violations();
  const tripwire = await openTripwire(() => violations.record('blocked_request', 'connection reached the tripwire proxy'));
  try {
    const context = await browser.createBrowserContext({
      proxyServer: tripwire.proxyServer,
      // Chromium bypasses proxies for loopback unless told otherwise
      proxyBypassList: ['<-loopback>'],
      downloadBehavior: { policy: 'deny' },
    });
    const assets: { current?: AssetResolver } = {};
    try {
      const { page, session } = await openIsolatedPage(context, { javascript: 'disabled', assets, violations });
      await page.setViewport(PREPARED_VIEWPORT);
      return { context, extra: { page, session, violations, assets, viewport: PREPARED_VIEWPORT }, dispose: () => tripwire.close() };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    await tripwire.close();
    throw error;
  }
}

/** Loads the HTML in a fresh sandboxed page and runs `capture` on it once it is ready. */
export async function inSandbox<T>(supervisor: Supervisor, options: SandboxOptions, capture: (page: Page) => Promise<T>): Promise<T> {
  return supervisor.withContext({ timeoutMs: options.timeoutMs }, async (prepared) => {
    const { page, session, violations, assets, viewport } = prepared.extra as SandboxParts;
    assets.current = options.assets;
    return violations.guard(async () => {
      if (options.javascript === 'enabled') await enableJavascript(page, violations);
      const wanted = options.viewport;
      if (wanted.width !== viewport.width || wanted.height !== viewport.height || wanted.deviceScaleFactor !== viewport.deviceScaleFactor) {
        await page.setViewport(wanted);
      }
      await loadContent(page, options.html);
      await auditResourceHints(session, violations);
      return capture(page);
    });
  });
}
