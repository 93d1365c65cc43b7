// asset:// references in what a render or preview produces (the contract's asset reference rule). The renderer serves
// only the assets captured with the job, so this check is what turns a wrong reference into a
// 400 at admission instead of a failed job.
import { assetIdPrefix, type FieldDetail, idPattern } from '@svc/contracts';
import type { DbOrTx } from '@svc/db';
import { DomainError } from '../shared/errors.ts';

const assetIdPattern = idPattern(assetIdPrefix);
/**
 * The scheme in any case (URL parsers lower-case it) and what follows it up to a character
 * that ends a URL in HTML attributes, srcset lists and CSS url(). The whole token must be an
 * asset id: a query, fragment or path makes the reference invalid.
 */
const referencePattern = /asset:\/\/([^\s"'`()<>\\,;]*)/gi;

/** The distinct asset ids referenced by `html`; throws 400 image_asset_reference_invalid on a malformed reference. */
export function findAssetReferences(html: string, field: string): string[] {
  const ids = new Set<string>();
  for (const match of html.matchAll(referencePattern)) {
    const id = match[1] ?? '';
    if (!assetIdPattern.test(id)) throw referenceError(field);
    ids.add(id);
  }
  return [...ids];
}

/**
 * Every asset:// reference in `html` must name an asset the account owns. Returns the ids,
 * which the job captures (assets are immutable, so the id names the exact bytes).
 */
export async function checkAssetReferences(db: DbOrTx, accountId: string, html: string, field: string): Promise<string[]> {
  const ids = findAssetReferences(html, field);
  if (ids.length === 0) return ids;
  const owned = await db.asset.count({ where: { accountId, id: { in: ids } } });
  if (owned !== ids.length) throw referenceError(field);
  return ids;
}

function referenceError(field: string): DomainError {
  const details: FieldDetail[] = [{ field, reason: 'invalid value' }];
  return new DomainError('image_asset_reference_invalid', { details });
}

/**
 * Chromium prints header and footer templates outside the page, where no request can be
 * answered from the job's assets; any image in them is refused rather than left blank.
 */
const headerImagePattern = /asset:|<img\b|<image\b|<picture\b|\bsrcset\s*=|url\s*\(/i;

export function checkHeaderFooterImages(pdf: { header_template?: string; footer_template?: string }): void {
  const details: FieldDetail[] = [];
  if (pdf.header_template && headerImagePattern.test(pdf.header_template)) details.push({ field: 'pdf.header_template', reason: 'invalid value' });
  if (pdf.footer_template && headerImagePattern.test(pdf.footer_template)) details.push({ field: 'pdf.footer_template', reason: 'invalid value' });
  if (details.length > 0) throw new DomainError('image_asset_header_unsupported', { details });
}
