// Resource hints may open connections without any request that interception or the network
// observers would see (a preconnect is a bare socket). The proxy keeps such a socket from
// leaving, but the render must still fail, so the finished document is audited for them.
// The audit reads the DOM through DevTools, not through page script, which could lie.
import type { CDPSession } from 'puppeteer-core';
import { classifyUrl } from './page-resource-policy.ts';
import type { Violations } from './violations.ts';

const NETWORK_HINTS = new Set(['preconnect', 'dns-prefetch', 'prefetch', 'prerender', 'preload', 'modulepreload', 'next']);

export async function auditResourceHints(session: CDPSession, violations: Violations): Promise<void> {
  const { root } = await session.send('DOM.getDocument', { depth: 0 });
  // asked together: DevTools answers them in order over the one connection, without a round trip each
  const [links, rules] = await Promise.all([
    session.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: 'link[rel][href]' }),
    // speculation rules make the browser itself prefetch or prerender other pages
    session.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: 'script[type="speculationrules" i]' }),
  ]);
  const attributes = await Promise.all(links.nodeIds.map((nodeId) => session.send('DOM.getAttributes', { nodeId })));
  // getDocument turned the DOM agent on, which would report every later change of the
  // document (the capture's layout, the reset) as events nobody reads: off again, sent with
  // the next command rather than waited for
  session.send('DOM.disable').catch(() => undefined);
  for (const each of attributes) {
    const map = attributeMap(each.attributes);
    const rel = (map.get('rel') ?? '').toLowerCase().split(/\s+/);
    const href = map.get('href') ?? '';
    const hint = rel.find((token) => NETWORK_HINTS.has(token));
    if (hint && classifyUrl(href).kind === 'blocked') violations.record('blocked_request', { layer: 'resource_hint', kind: hint, url: href });
  }
  if (rules.nodeIds.length > 0) violations.record('blocked_request', { layer: 'resource_hint', kind: 'speculation_rules' });
}

/** DevTools returns attributes as a flat [name, value, name, value, ...] list. */
function attributeMap(flat: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let index = 0; index + 1 < flat.length; index += 2) {
    const name = flat[index]!.toLowerCase();
    if (!map.has(name)) map.set(name, flat[index + 1]!);
  }
  return map;
}
