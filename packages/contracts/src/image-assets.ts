// Image assets (the contract's image asset resource and routes): uploads of raw bytes, their content, and URL previews.
import { z } from 'zod';
import { assetIdPrefix, idSchema, idSource, NoQuery } from './common.ts';
import { defineOperation, jsonBodyErrors, type Operation } from './operation.ts';
import { named } from './registry.ts';

const tag = 'Image assets';
export const imageAssetMediaTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** The contract's limits: uploads and URL previews are at most 10 MiB. */
export const maxImageAssetBytes = 10 * 1024 * 1024;
export const imageUrlPreviewBodyLimit = 16 * 1024;

export const ImageAssetId = idSchema(assetIdPrefix);

export const UploadedImage = named(
  'UploadedImage',
  z.strictObject({
    id: ImageAssetId,
    reference: z.string().regex(new RegExp(`^asset://${idSource(assetIdPrefix)}$`)).meta({ description: 'Use it as an img src or CSS url() in HTML and template data.' }),
    media_type: z.enum(imageAssetMediaTypes),
    byte_size: z.int().min(1).max(maxImageAssetBytes),
    width: z.int().min(1).max(7680).meta({ description: 'As displayed, after EXIF orientation' }),
    height: z.int().min(1).max(7680).meta({ description: 'As displayed, after EXIF orientation' }),
  }),
);
export type UploadedImage = z.infer<typeof UploadedImage>;

export const ImageUrlPreviewRequest = named(
  'ImageUrlPreviewRequest',
  // the egress policy refuses other schemes (url.scheme_not_allowed); URL parsing lowercases the scheme
  z.strictObject({ url: z.string().min(1).max(4096).meta({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?:', description: 'A public http or https URL of a PNG, JPEG or WebP image.' }) }),
);
export type ImageUrlPreviewRequest = z.infer<typeof ImageUrlPreviewRequest>;

const imageRuleErrors = ['image_asset_invalid', 'image_asset_too_large', 'image_asset_type_unsupported'] as const;

export const createImageAssetOperation = defineOperation({
  operationId: 'createImageAsset',
  method: 'post',
  path: '/v1/image-assets',
  tag,
  summary: 'Upload an image (raw bytes) for use in renders; no credit is spent',
  description:
    'The body is the image itself with Content-Type image/png, image/jpeg or image/webp; the bytes must be of that type. ' +
    'Refused: other or missing types (422 image_asset_type_unsupported), bytes of another type, animations (GIF or WebP ' +
    'frames, APNG), more than 7680 wide or 4320 high as displayed, more than 32 million pixels or 64 MiB decoded, and ' +
    'damaged files (422 image_asset_invalid; the reason is the details field, e.g. body.animated); more than 10 MiB ' +
    '(413 image_asset_too_large); an empty body (400 invalid_upload). An account holds at most 100 asset files totalling ' +
    '100 MiB (409 image_asset_limit). Rate limit per key: 5 per second, idle burst 25.',
  auth: 'bearer',
  rawBody: { mediaTypes: imageAssetMediaTypes, maxBytes: maxImageAssetBytes, tooLargeCode: 'image_asset_too_large' },
  responses: { 201: { description: 'The stored image', schema: UploadedImage } },
  errors: [...imageRuleErrors, 'invalid_upload', 'image_asset_limit', 'rate_limited'],
});

export const previewImageUrlOperation = defineOperation({
  operationId: 'previewImageUrl',
  method: 'post',
  path: '/v1/image-assets/preview',
  tag,
  summary: 'Fetch a public image by URL and answer its verified bytes (nothing stored or charged)',
  description:
    'http (port 80) or https (port 443), no credentials; every resolved address of the host, and of every redirect (at most ' +
    'five), must be public, else 400 image_url_invalid with the policy code in the details field (url.private_address). ' +
    'A fetch that fails, times out (15 s in all) or ends in a non-2xx status answers 422 image_url_unavailable. The image ' +
    'is then checked with the upload rules and codes (details fields url.<reason>). Rate limit per key (or browser session): ' +
    '2 per second, idle burst 10. A browser session may call it with its cookie and x-csrf-token.',
  auth: 'bearer_or_session',
  body: { schema: ImageUrlPreviewRequest, maxBytes: imageUrlPreviewBodyLimit },
  responses: {
    200: {
      description: 'The image bytes, with Content-Type image/png, image/jpeg or image/webp (Cache-Control: private, no-store; nosniff)',
      mediaTypes: imageAssetMediaTypes,
    },
  },
  errors: [...jsonBodyErrors, ...imageRuleErrors, 'image_url_invalid', 'image_url_unavailable', 'rate_limited'],
});

export const getImageAssetContentOperation = defineOperation({
  operationId: 'getImageAssetContent',
  method: 'get',
  path: '/v1/image-assets/{id}/content',
  tag,
  summary: 'The exact stored bytes of an asset of the account',
  description: 'Cache-Control: private, no-store and X-Content-Type-Options: nosniff. A missing or foreign id answers the same 404.',
  auth: 'bearer',
  query: NoQuery,
  params: z.strictObject({ id: ImageAssetId }),
  responses: {
    200: { description: 'The stored bytes with their media type', mediaTypes: [...imageAssetMediaTypes, 'font/woff2'] },
  },
  errors: ['not_found', 'image_asset_unavailable'],
});

export const imageAssetOperationList: readonly Operation[] = [createImageAssetOperation, previewImageUrlOperation, getImageAssetContentOperation];

