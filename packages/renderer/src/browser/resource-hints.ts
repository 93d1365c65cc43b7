// Resource hints may open connections without any request that interception or the network
// observers would see (a preconnect is a bare socket). The proxy keeps such a socket from
// leaving, but the render must still fail, so the finished document is audited for them.
// The audit reads the DOM in the service's isolated world (page/isolated-world.ts), whose DOM
// functions the document's script cannot replace, so the page cannot lie to it.
import type { CDPSession } from 'puppeteer-core';
import { callIsolated } from '../page/isolated-world.ts';
import { classifyUrl } from '../page/page-resource-policy.ts';
import type { Violations } from './violations.ts';

const NETWORK_HINTS = ['preconnect', 'dns-prefetch', 'prefetch', 'prerender', 'preload', 'modulepreload', 'next'];

/** The document's network hints: each distinct (kind, href) of a link whose rel names one, and whether speculation rules are present. */
export interface ResourceHints {
  links: { kind: string; href: string }[];
  speculationRules: boolean;
}

/**
 * Reads the document's resource hints. Plain source of a function (see select-canvas-pages.ts),
 * run in the isolated world, alone or as the end of another evaluation there (load-content.ts).
 */
export const READ_RESOURCE_HINTS = `(() => {
  const hints = ${JSON.stringify(NETWORK_HINTS)};
  const links = new Map();
  for (const link of document.querySelectorAll('link[rel][href]')) {
    const kind = link.getAttribute('rel').toLowerCase().split(/\\s+/).find((token) => hints.includes(token));
    const href = link.getAttribute('href');
    if (kind && !links.has(kind + ' ' + href)) links.set(kind + ' ' + href, { kind, href });
  }
  // speculation rules make the browser itself prefetch or prerender other pages
  return { links: [...links.values()], speculationRules: document.querySelector('script[type="speculationrules" i]') !== null };
})`;

/** Reads the finished document's resource hints in one evaluation. */
export async function readResourceHints(session: CDPSession): Promise<ResourceHints> {
  return (await callIsolated(session, 'readResourceHints', READ_RESOURCE_HINTS, null)) as ResourceHints;
}

/** Records a blocked request for each hint that points outside the sandbox, and for speculation rules. */
export function auditResourceHints(hints: ResourceHints, violations: Violations): void {
  for (const { kind, href } of hints.links) {
    if (classifyUrl(href).kind === 'blocked') violations.record('blocked_request', { layer: 'resource_hint', kind, url: href });
  }
  if (hints.speculationRules) violations.record('blocked_request', { layer: 'resource_hint', kind: 'speculation_rules' });
}
