import type { ErrorCode, FieldDetail } from '@svc/contracts';
import { DomainError } from '../shared/errors.ts';
import type { ImageRefusal } from './verify-image.ts';

/** The image_asset_* code of each refusal (uploads and URL previews; docs/decisions/image-assets.md lists the mapping). */
const imageAssetCodes: Record<ImageRefusal, ErrorCode> = {
  empty: 'invalid_upload',
  too_large: 'image_asset_too_large',
  type_unsupported: 'image_asset_type_unsupported',
  type_mismatch: 'image_asset_invalid',
  animated: 'image_asset_invalid',
  dimensions_exceeded: 'image_asset_invalid',
  pixels_exceeded: 'image_asset_invalid',
  decoded_size_exceeded: 'image_asset_invalid',
  corrupt: 'image_asset_invalid',
};

/**
 * The error for a refused image. Messages are fixed per code, so the reason rides in the
 * details' field path (`body.animated`, `url.pixels_exceeded`), the way egress refusals do.
 */
export function imageAssetError(refusal: ImageRefusal, field: 'body' | 'url'): DomainError {
  const details: FieldDetail[] = [{ field: `${field}.${refusal}`, reason: 'invalid value' }];
  // an empty upload is a malformed request; an empty answer from a URL is not an image
  const code = refusal === 'empty' && field === 'url' ? 'image_asset_invalid' : imageAssetCodes[refusal];
  return new DomainError(code, { details });
}
