// The single rule for what untrusted HTML may load. Everything not listed here is a blocked
// request, whatever the scheme, host spelling or resource type.
import { assetIdPrefix, idPattern, idSource } from '@svc/rules';

/** Internal https alias for asset references; see rewriteAssetReferences for why it exists. */
const ASSET_ALIAS_ORIGIN = 'https://asset.svc.invalid';

const ASSET_ID = idPattern(assetIdPrefix);
const ASSET_REFERENCE = new RegExp(`asset://(${idSource(assetIdPrefix)})(?![0-9a-zA-Z_])`, 'g');

export type UrlVerdict =
  | { kind: 'inline' } // data:, blob:, about:blank, about:srcdoc: never touches the network
  | { kind: 'asset'; reference: string } // asset://asset_<hex>, answered from the resolver
  | { kind: 'blocked' };

export function classifyUrl(url: string): UrlVerdict {
  const lower = url.slice(0, 16).toLowerCase();
  if (lower.startsWith('data:') || lower.startsWith('blob:')) return { kind: 'inline' };
  if (/^about:(blank|srcdoc)(?:[?#]|$)/i.test(url)) return { kind: 'inline' };
  const reference = assetReference(url);
  return reference ? { kind: 'asset', reference } : { kind: 'blocked' };
}

/** The canonical asset:// form of an asset URL (either spelling), or null. */
function assetReference(url: string): string | null {
  let id: string | null = null;
  if (url.startsWith('asset://')) id = url.slice('asset://'.length);
  else if (url.startsWith(`${ASSET_ALIAS_ORIGIN}/`)) id = url.slice(ASSET_ALIAS_ORIGIN.length + 1);
  return id !== null && ASSET_ID.test(id) ? `asset://${id}` : null;
}

/**
 * Chromium refuses CORS-mode loads (web fonts, module scripts) from unknown schemes before any
 * request exists, so an asset:// font could never reach the interceptor. Rewriting the exact
 * reference pattern to an https alias on a reserved .invalid host lets every load type reach
 * interception, where it is answered locally; the alias can never resolve on a real network.
 */
export function rewriteAssetReferences(html: string): string {
  return html.replace(ASSET_REFERENCE, `${ASSET_ALIAS_ORIGIN}/$1`);
}

/** A URL as the document wrote it: the https alias of an asset reference back in its asset:// form. */
export function assetReferenceAsWritten(url: string): string {
  return url.startsWith(`${ASSET_ALIAS_ORIGIN}/`) ? `asset://${url.slice(ASSET_ALIAS_ORIGIN.length + 1)}` : url;
}
