// Which IP addresses the service may connect to on a customer's behalf. Everything that is
// not plainly public unicast is refused, including the IPv6 forms that carry an IPv4
// address inside them (IPv4-mapped, NAT64, 6to4), which are judged by that inner address.
import { isIPv4, isIPv6 } from 'node:net';

/** Stable codes of the address rule; they reach clients in the field details of a refusal. */
export type AddressRefusal =
  | 'invalid_address'
  | 'unspecified_address'
  | 'loopback_address'
  | 'private_address'
  | 'link_local_address'
  | 'metadata_address'
  | 'cgnat_address'
  | 'benchmarking_address'
  | 'multicast_address'
  | 'reserved_address';

interface Range {
  bytes: number[];
  prefix: number;
  code: AddressRefusal;
}

function range(cidr: string, code: AddressRefusal): Range {
  const [address = '', prefix = ''] = cidr.split('/');
  const bytes = isIPv4(address) ? parseIPv4(address) : parseIPv6(address);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { bytes, prefix: Number(prefix), code };
}

// Most specific first: the first range that holds an address decides.
const ipv4Ranges: Range[] = [
  range('169.254.169.254/32', 'metadata_address'), // AWS, GCP, Azure, OpenStack, Oracle
  range('169.254.170.2/32', 'metadata_address'), // AWS ECS task metadata
  range('100.100.100.200/32', 'metadata_address'), // Alibaba Cloud
  range('0.0.0.0/32', 'unspecified_address'),
  range('0.0.0.0/8', 'reserved_address'), // "this network"
  range('10.0.0.0/8', 'private_address'),
  range('100.64.0.0/10', 'cgnat_address'),
  range('127.0.0.0/8', 'loopback_address'),
  range('169.254.0.0/16', 'link_local_address'),
  range('172.16.0.0/12', 'private_address'),
  range('192.0.0.0/24', 'reserved_address'), // IETF protocol assignments
  range('192.0.2.0/24', 'reserved_address'), // documentation
  range('192.88.99.0/24', 'reserved_address'), // deprecated 6to4 relay anycast
  range('192.168.0.0/16', 'private_address'),
  range('198.18.0.0/15', 'benchmarking_address'),
  range('198.51.100.0/24', 'reserved_address'), // documentation
  range('203.0.113.0/24', 'reserved_address'), // documentation
  range('224.0.0.0/4', 'multicast_address'),
  range('240.0.0.0/4', 'reserved_address'), // includes broadcast
];

const ipv6Ranges: Range[] = [
  range('::/128', 'unspecified_address'),
  range('::1/128', 'loopback_address'),
  range('fd00:ec2::254/128', 'metadata_address'), // AWS IPv6 instance metadata
  range('64:ff9b:1::/48', 'private_address'), // local-use NAT64
  range('100::/64', 'reserved_address'), // discard-only
  range('2001::/23', 'reserved_address'), // IETF protocol assignments, Teredo among them
  range('2001:db8::/32', 'reserved_address'), // documentation
  range('3fff::/20', 'reserved_address'), // documentation
  range('fc00::/7', 'private_address'), // unique local
  range('fe80::/10', 'link_local_address'),
  range('fec0::/10', 'private_address'), // deprecated site-local
  range('ff00::/8', 'multicast_address'),
];

/** IPv6 prefixes whose address carries an IPv4 address at a byte offset. */
const embeddings: { range: Range; offset: number }[] = [
  { range: range('::ffff:0:0/96', 'reserved_address'), offset: 12 }, // IPv4-mapped
  { range: range('64:ff9b::/96', 'reserved_address'), offset: 12 }, // NAT64 well-known prefix
  { range: range('2002::/16', 'reserved_address'), offset: 2 }, // 6to4
];
const ipv4Compatible = range('::/96', 'reserved_address'); // deprecated ::a.b.c.d
const globalUnicast = range('2000::/3', 'reserved_address');

/**
 * Classifies an address as the resolver returns it (canonical text, IPv6 with or without
 * brackets). Returns null for a public address, else the refusal code.
 */
export function classifyAddress(text: string): AddressRefusal | null {
  const address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv4(address)) return classifyIPv4(parseIPv4(address) as number[]);
  if (!isIPv6(address) || address.includes('%')) return 'invalid_address';
  const bytes = parseIPv6(address);
  if (!bytes) return 'invalid_address';
  for (const { range: embedding, offset } of embeddings) {
    if (contains(embedding, bytes)) return classifyIPv4(bytes.slice(offset, offset + 4));
  }
  const special = ipv6Ranges.find((candidate) => contains(candidate, bytes));
  if (special) return special.code;
  if (contains(ipv4Compatible, bytes) || !contains(globalUnicast, bytes)) return 'reserved_address';
  return null;
}

function classifyIPv4(bytes: number[]): AddressRefusal | null {
  return ipv4Ranges.find((candidate) => contains(candidate, bytes))?.code ?? null;
}

function contains(candidate: Range, bytes: number[]): boolean {
  if (candidate.bytes.length !== bytes.length) return false;
  let bits = candidate.prefix;
  for (let index = 0; bits > 0; index++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[index] ?? 0) & mask) !== ((candidate.bytes[index] ?? 0) & mask)) return false;
  }
  return true;
}

/** Dotted-decimal IPv4 (the canonical form; URL parsing has already normalised other spellings). */
export function parseIPv4(text: string): number[] | null {
  if (!isIPv4(text)) return null;
  return text.split('.').map(Number);
}

/** Sixteen bytes of an IPv6 address in any textual form, including a trailing dotted IPv4. */
export function parseIPv6(text: string): number[] | null {
  if (!isIPv6(text)) return null;
  // a trailing dotted IPv4 becomes two ordinary groups
  const source = text.toLowerCase().replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_match, a, b, c, d) => {
    const hex = (high: string, low: string) => ((Number(high) << 8) | Number(low)).toString(16);
    return `${hex(a, b)}:${hex(c, d)}`;
  });
  const [head = '', rest] = source.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const zeros = new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0);
  const groups = [...left, ...zeros, ...right];
  if (groups.length !== 8 || groups.some((group) => !Number.isInteger(group) || group < 0 || group > 0xffff)) return null;
  return groups.flatMap((group) => [(group >> 8) & 0xff, group & 0xff]);
}
