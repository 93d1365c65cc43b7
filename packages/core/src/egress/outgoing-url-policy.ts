// The rule for outgoing URLs: https on port 443, no credentials, a host whose every
// resolved address is public. Checked when a URL is accepted and again on every connection.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { withDeadline } from '@svc/deadline';
import type { AllowlistEntry } from '../shared/config.ts';
import { type AddressRefusal, classifyAddress } from './address-policy.ts';

/** Stable codes of every refusal; docs/decisions/webhooks.md lists them. */
export type EgressRefusal =
  | AddressRefusal
  | 'url_malformed'
  | 'url_too_long'
  | 'scheme_not_https'
  | 'scheme_not_allowed'
  | 'port_not_allowed'
  | 'credentials_not_allowed'
  | 'host_not_resolvable';

export const maxEgressUrlLength = 2048;

/** What one kind of outgoing request may use: schemes with their one port, and the URL length. */
export interface EgressRules {
  ports: Readonly<Record<string, number>>;
  maxUrlLength: number;
  /** The refusal of any other scheme. */
  schemeRefusal: 'scheme_not_https' | 'scheme_not_allowed';
  /** Plain http only to allowlisted hosts (a local model in development); every other host needs https. */
  httpOnlyAllowlisted?: boolean;
}

/** Webhook deliveries: https on 443, URLs up to 2048 characters. */
export const webhookEgressRules: EgressRules = { ports: { 'https:': 443 }, maxUrlLength: maxEgressUrlLength, schemeRefusal: 'scheme_not_https' };
/** Image URL previews (the contract's image asset routes): http on 80 or https on 443, URLs up to 4096 characters. */
export const imageUrlEgressRules: EgressRules = { ports: { 'http:': 80, 'https:': 443 }, maxUrlLength: 4096, schemeRefusal: 'scheme_not_allowed' };
/** The AI provider: https on 443; plain http only to an allowlisted host (a local model such as Ollama). */
export const aiProviderEgressRules: EgressRules = {
  ports: { 'http:': 80, 'https:': 443 },
  maxUrlLength: maxEgressUrlLength,
  schemeRefusal: 'scheme_not_https',
  httpOnlyAllowlisted: true,
};
/** A name that does not resolve in this time is treated as not resolvable. */
const resolveTimeoutMs = 5000;

/** Resolves a host name to its addresses; injectable so tests never need real DNS. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

export interface EgressPolicy {
  /** Hosts that skip the address and port rules (development and tests only). */
  allowlist: readonly AllowlistEntry[];
  resolver?: Resolver;
}

export interface VettedTarget {
  url: URL;
  /** Host name as the TLS certificate must name it (IPv6 without brackets). */
  hostname: string;
  port: number;
  /** Addresses to connect to, every one of them checked. */
  addresses: string[];
  allowlisted: boolean;
}

export type VetResult = { ok: true; target: VettedTarget } | { ok: false; refusal: EgressRefusal };
export type ShapeResult = { ok: true; url: URL; port: number; allowlisted: boolean } | { ok: false; refusal: EgressRefusal };

function isAllowlisted(policy: EgressPolicy, hostname: string, port: number): boolean {
  return policy.allowlist.some((entry) => entry.hostname === hostname && (entry.port === null || entry.port === port));
}

/** The checks that need no DNS: shape, scheme, credentials, port. */
export function checkUrlShape(text: string, policy: EgressPolicy, rules: EgressRules = webhookEgressRules): ShapeResult {
  if (text.length > rules.maxUrlLength) return { ok: false, refusal: 'url_too_long' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, refusal: 'url_malformed' };
  }
  const defaultPort = Object.hasOwn(rules.ports, url.protocol) ? rules.ports[url.protocol] : undefined;
  if (defaultPort === undefined) return { ok: false, refusal: rules.schemeRefusal };
  if (!url.hostname) return { ok: false, refusal: 'url_malformed' };
  if (url.username || url.password) return { ok: false, refusal: 'credentials_not_allowed' };
  const port = url.port === '' ? defaultPort : Number(url.port);
  const allowlisted = isAllowlisted(policy, url.hostname, port);
  if (rules.httpOnlyAllowlisted && url.protocol === 'http:' && !allowlisted) return { ok: false, refusal: 'scheme_not_https' };
  if (port !== defaultPort && !allowlisted) return { ok: false, refusal: 'port_not_allowed' };
  return { ok: true, url, allowlisted, port };
}

/**
 * Applies the whole policy: shape, then every resolved address. A single non-public
 * address refuses the whole answer, so a mixed answer cannot be used to slip through.
 */
export async function vetUrl(text: string, policy: EgressPolicy, rules: EgressRules = webhookEgressRules): Promise<VetResult> {
  const shape = checkUrlShape(text, policy, rules);
  if (!shape.ok) return shape;
  const { url, allowlisted, port } = shape;
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: string[];
  if (isIP(hostname)) addresses = [hostname];
  else {
    // an answer that fails or comes too late refuses the host alike
    const resolved = await withDeadline((policy.resolver ?? systemResolver)(hostname), resolveTimeoutMs, () => null).catch(() => null);
    if (!resolved || resolved.length === 0) return { ok: false, refusal: 'host_not_resolvable' };
    addresses = resolved;
  }
  if (!allowlisted) {
    for (const address of addresses) {
      const refusal = classifyAddress(address);
      if (refusal) return { ok: false, refusal };
    }
  }
  return { ok: true, target: { url, hostname, port, addresses, allowlisted } };
}
