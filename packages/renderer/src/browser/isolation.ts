// The in-browser layers of the sandbox for one job's page. The outer layers (a proxy that
// forwards nothing, resolver rules that resolve nothing) live in launch-flags.ts and tripwire.ts.
//
//  1. Request interception: data:, blob:, about:blank pass; asset references are answered from
//     the resolver; everything else is aborted and fails the job.
//  2. Observers on a separate DevTools session: requests Chromium issues outside interception
//     (link prefetch), requests it refuses itself (file:, chrome:), WebSocket creation.
//  3. Targets: workers, service workers and popups fail the job; their traffic is not covered
//     by page-level interception.
//  4. With javascript enabled, a guard script reports attempts refused before any request.
import type { BrowserContext, CDPSession, HTTPRequest, Page, Target } from 'puppeteer-core';
import { type AssetResolver, type JavascriptMode, RenderError, type ResolvedAsset } from '@svc/contracts';
import { GUARD_REPORT_KINDS, PAGE_GUARD_SCRIPT, REPORT_BINDING, type GuardReportKind } from './page-guard-script.ts';
import { classifyUrl } from '../page/page-resource-policy.ts';
import type { JobFindings, Violations } from './violations.ts';

export interface IsolationOptions {
  javascript: JavascriptMode;
  /** Read at request time: a sandbox is opened before its job, whose resolver is set on arrival. */
  assets: { current?: AssetResolver };
  violations: Violations;
  /** the collector of the job being served (brand kit fonts it loads are recorded there) */
  found: JobFindings;
}

export interface IsolatedPage {
  page: Page;
  /** DevTools session of our own, untouched by page scripts */
  session: CDPSession;
}

const LOCAL_RESOURCE_REFUSED = 'Not allowed to load local resource';

const FOREIGN_TARGETS = new Set(['page', 'background_page', 'service_worker', 'shared_worker', 'webview']);

export async function openIsolatedPage(context: BrowserContext, options: IsolationOptions): Promise<IsolatedPage> {
  const { violations } = options;
  // in a minimized window: hidden, never drawn until the sandbox shows it (showPage in sandbox.ts)
  const page = await context.newPage({ type: 'window', windowBounds: { windowState: 'minimized' } });
  // registered after our own page exists: any later page in this context is a popup
  context.on('targetcreated', (target: Target) => {
    if (target !== page.target() && FOREIGN_TARGETS.has(target.type())) violations.record('blocked_request', { layer: 'target', kind: target.type(), url: target.url() });
  });
  page.on('workercreated', (worker) => violations.record('blocked_request', { layer: 'target', kind: 'worker', url: worker.url() }));
  // a crashed renderer never answers again: fail now instead of at the deadline. Content that
  // crashes its renderer has almost always run it out of memory.
  page.on('error', () => violations.fail(new RenderError('resource_limit', 'page_crashed', 'the page crashed its renderer')));

  const resolveAsset = cachedResolver(options.assets);
  page.on('request', (request) => void interceptRequest(request, resolveAsset, violations, options.found));
  // independent DevTools round trips, and nothing is loaded before all of them are in place
  const [session] = await Promise.all([
    openObserverSession(page, violations),
    page.setRequestInterception(true),
    page.setJavaScriptEnabled(options.javascript === 'enabled'),
    options.javascript === 'enabled' ? installGuardScript(page, violations) : undefined,
  ]);
  return { page, session };
}

async function interceptRequest(
  request: HTTPRequest,
  resolveAsset: (reference: string) => Promise<ResolvedAsset | null>,
  violations: Violations,
  found: JobFindings,
): Promise<void> {
  const url = request.url();
  const verdict = classifyUrl(url);
  try {
    if (verdict.kind === 'inline') return await request.continue();
    // an asset is an image or a font, never a document to navigate to
    if (verdict.kind === 'blocked' || request.resourceType() === 'document') {
      violations.record('blocked_request', { layer: 'interception', kind: request.resourceType(), url });
      return await request.abort('blockedbyclient');
    }
    let asset: ResolvedAsset | null;
    try {
      asset = await resolveAsset(verdict.reference);
    } catch (error) {
      // our storage failing is not the customer's fault
      violations.fail(new RenderError('internal_failure', 'asset_resolver_failed', 'the asset resolver failed', { cause: error }));
      return await request.abort('failed');
    }
    if (!asset) {
      violations.record('unknown_asset', { layer: 'interception', kind: 'asset', url, resourceType: request.resourceType() });
      return await request.abort('blockedbyclient');
    }
    if (asset.fontFamily) found.current?.brandFont(asset.fontFamily);
    await request.respond({
      status: 200,
      contentType: asset.mediaType,
      // fonts load in CORS mode from the page's opaque origin
      headers: { 'access-control-allow-origin': '*', 'cache-control': 'no-store' },
      body: asset.bytes,
    });
  } catch {
    // the request was already handled or its page is gone (job over); nothing left to do
  }
}

async function openObserverSession(page: Page, violations: Violations): Promise<CDPSession> {
  const session = await page.createCDPSession();
  session.on('Network.requestWillBeSent', (event) => {
    if (classifyUrl(event.request.url).kind === 'blocked') violations.record('blocked_request', { layer: 'observer', kind: (event.type ?? 'other').toLowerCase(), url: event.request.url });
  });
  session.on('Network.webSocketCreated', (event) => violations.record('blocked_request', { layer: 'observer', kind: 'websocket', url: event.url }));
  session.on('Log.entryAdded', ({ entry }) => {
    // Chromium refuses file: and chrome: subresources in the renderer and only logs it
    if (entry.text.startsWith(LOCAL_RESOURCE_REFUSED)) {
      violations.record('blocked_request', { layer: 'observer', kind: 'local_resource', url: entry.text.slice(LOCAL_RESOURCE_REFUSED.length).replace(/^:\s*/, '') });
    }
  });
  // no response bodies are needed; keep the inspector from buffering them
  await Promise.all([session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }), session.send('Log.enable')]);
  return session;
}

/** Turns script on for a page opened with it off, guard first (spec: javascript.mode enabled). */
export async function enableJavascript(page: Page, violations: Violations): Promise<void> {
  await installGuardScript(page, violations);
  await page.setJavaScriptEnabled(true);
}

/** Pages that have the report binding: a reused page keeps it, and it can be added only once. */
const guardedPages = new WeakSet<Page>();

async function installGuardScript(page: Page, violations: Violations): Promise<void> {
  if (!guardedPages.has(page)) {
    await page.exposeFunction(REPORT_BINDING, (kind: unknown, target: unknown) => judgeGuardReport(String(kind), String(target), violations));
    await page.evaluateOnNewDocument(PAGE_GUARD_SCRIPT);
    guardedPages.add(page);
  }
  // setContent writes into the page's current document, which no longer counts as new
  await page.evaluate(PAGE_GUARD_SCRIPT);
}

function judgeGuardReport(kind: string, target: string, violations: Violations): void {
  // page script can call the binding itself with any text: only a known kind is repeated
  const reported: GuardReportKind | 'unknown' = (GUARD_REPORT_KINDS as readonly string[]).includes(kind) ? (kind as GuardReportKind) : 'unknown';
  // the target is what the page passed: a URL for every kind but webrtc (its servers' list)
  const finding = { layer: 'page_guard' as const, kind: reported, url: reported === 'webrtc' ? undefined : target };
  switch (reported) {
    case 'eventsource':
    case 'popup':
      if (classifyUrl(target).kind !== 'inline') violations.record('blocked_request', finding);
      return;
    case 'webrtc':
      if (target !== '[]') violations.record('blocked_request', finding);
      return;
    default:
      // workers, service workers, WebSocket, WebTransport: never allowed, whatever the URL
      violations.record('blocked_request', finding);
  }
}

/** One resolver call per distinct reference within a job (each job brings its own resolver). */
function cachedResolver(assets: { current?: AssetResolver }): (reference: string) => Promise<ResolvedAsset | null> {
  const cache = new Map<string, Promise<ResolvedAsset | null>>();
  let cachedFor: AssetResolver | undefined;
  return (reference) => {
    const resolver = assets.current;
    if (!resolver) return Promise.resolve(null);
    if (resolver !== cachedFor) {
      cache.clear();
      cachedFor = resolver;
    }
    let pending = cache.get(reference);
    if (!pending) {
      pending = resolver(reference);
      cache.set(reference, pending);
    }
    return pending;
  };
}
