// What a brand asset upload is (the contract's brand kit routes): a logo (PNG, JPEG or WebP under the image rules) or a
// font (WOFF2 under the font rules), as declared by the Content-Type and confirmed by the bytes.
import { brandAssetMediaTypes, type ErrorCode } from '@svc/contracts';
import { type ImageRefusal, imageLimits, sniffImageType, verifyImage } from '../assets/verify-image.ts';
import { DomainError } from '../shared/errors.ts';
import { verifyFont } from './verify-font.ts';

export type BrandAssetKind = 'logo' | 'font';

export interface VerifiedBrandAsset {
  kind: BrandAssetKind;
  mediaType: (typeof brandAssetMediaTypes)[number];
  width: number | null;
  height: number | null;
  /** A font's family name (brand.fonts[].family); null for logos. */
  fontFamily: string | null;
}

/** The brand code of each image refusal (docs/decisions/brand-kits.md, brand assets). */
const brandImageCodes: Record<ImageRefusal, ErrorCode> = {
  empty: 'invalid_upload',
  too_large: 'brand_asset_too_large',
  type_unsupported: 'brand_asset_type_unsupported',
  type_mismatch: 'brand_asset_invalid',
  animated: 'brand_image_animated',
  dimensions_exceeded: 'brand_image_dimensions_invalid',
  pixels_exceeded: 'brand_image_pixels_exceeded',
  decoded_size_exceeded: 'brand_image_pixels_exceeded',
  corrupt: 'brand_asset_invalid',
};

const refused = (code: ErrorCode, reason: string) => new DomainError(code, { details: [{ field: `body.${reason}`, reason: 'invalid value' }] });

const isBrandAssetMediaType = (type: string | null): type is VerifiedBrandAsset['mediaType'] =>
  (brandAssetMediaTypes as readonly (string | null)[]).includes(type);

/** The kind the bytes are, by their signature: a WOFF2 font, an image (any format), or neither. */
function sniffKind(bytes: Uint8Array): BrandAssetKind | null {
  if (bytes.byteLength >= 4 && Buffer.from(bytes.buffer, bytes.byteOffset, 4).toString('latin1') === 'wOF2') return 'font';
  return sniffImageType(bytes) ? 'logo' : null;
}

/**
 * Checks an upload in order: present (400 invalid_upload), at most 10 MiB (413
 * brand_asset_too_large), a declared type of the four (415 brand_asset_type_unsupported), bytes
 * of the declared kind (font bytes declared as an image, or image bytes declared as a font: 422
 * brand_asset_kind_mismatch), then the image rules (brand_image_*, brand_asset_invalid) or the
 * font rules (brand_font_*; a font must name its family, which templates read).
 */
export async function verifyBrandAsset(bytes: Uint8Array, declared: string | null): Promise<VerifiedBrandAsset> {
  if (bytes.byteLength === 0) throw refused('invalid_upload', 'empty');
  if (bytes.byteLength > imageLimits.maxBytes) throw refused('brand_asset_too_large', 'too_large');
  if (!isBrandAssetMediaType(declared)) throw refused('brand_asset_type_unsupported', 'type_unsupported');
  const kind: BrandAssetKind = declared === 'font/woff2' ? 'font' : 'logo';
  const sniffed = sniffKind(bytes);
  if (sniffed !== null && sniffed !== kind) throw refused('brand_asset_kind_mismatch', 'kind_mismatch');
  if (kind === 'font') {
    const font = await verifyFont(bytes);
    if (font.family === null) throw refused('brand_font_tables_invalid', 'family_missing');
    return { kind, mediaType: declared, width: null, height: null, fontFamily: font.family };
  }
  const verdict = await verifyImage(bytes, declared);
  if (!verdict.ok) throw refused(brandImageCodes[verdict.refusal], verdict.refusal);
  return { kind, mediaType: declared, width: verdict.image.width, height: verdict.image.height, fontFamily: null };
}
