import type { UploadedImage } from '@svc/contracts';
import type { AssetRecord } from '@svc/core';

/** The public shape of an uploaded image (the contract's image asset resource). */
export function uploadedImageBody(asset: AssetRecord): UploadedImage {
  return {
    id: asset.id,
    reference: `asset://${asset.id}`,
    media_type: asset.mediaType as UploadedImage['media_type'],
    byte_size: asset.byteSize,
    width: asset.width ?? 0,
    height: asset.height ?? 0,
  };
}

/** Headers of any answer that carries a customer's file bytes: never cached, never sniffed. */
export function fileHeaders(mediaType: string, byteSize: number): Record<string, string> {
  return {
    'content-type': mediaType,
    'content-length': String(byteSize),
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  };
}
