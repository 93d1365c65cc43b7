// Identifiers, the contract's identifier rule: a resource prefix and 32 lowercase hex
// characters. The one text of that rule: contracts validate with it, core refuses an unknown id
// before any query with it, and the renderer recognises asset references with it.

const idHex = '[0-9a-f]{32}';

/** Prefix of an uploaded image asset's id; its reference in HTML is asset:// and the id. */
export const assetIdPrefix = 'asset_';

/**
 * The unanchored text of an id with one of `prefixes` (each ends in an underscore), to stand
 * inside a larger pattern. Several prefixes read as the contract publishes them,
 * `(pdf|image)_[0-9a-f]{32}`: their stems are one captured group.
 */
export function idSource(...prefixes: readonly string[]): string {
  return alternatives(prefixes, '(');
}

/** The same without a captured group, for a pattern that numbers groups of its own. */
export function uncapturedIdSource(...prefixes: readonly string[]): string {
  return alternatives(prefixes, '(?:');
}

function alternatives(prefixes: readonly string[], open: string): string {
  if (prefixes.length === 1) return `${prefixes[0]}${idHex}`;
  return `${open}${prefixes.map((prefix) => prefix.slice(0, -1)).join('|')})_${idHex}`;
}

/** An id with one of `prefixes`, and nothing else. */
export function idPattern(...prefixes: readonly string[]): RegExp {
  return new RegExp(`^${idSource(...prefixes)}$`);
}
