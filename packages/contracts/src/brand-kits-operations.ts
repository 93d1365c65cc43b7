// Brand kit operations (the contract's brand kit routes), with the kit's logo and font routes.
import { z } from 'zod';
import { NoQuery } from './common.ts';
import {
  BrandAsset,
  brandAssetMediaTypes,
  brandKitBodyLimit,
  BrandKitDetail,
  BrandKitListQuery,
  BrandKitPage,
  BrandKitPatch,
  BrandKitWrite,
} from './brand-kits.ts';
import type { ErrorCode } from './errors.ts';
import { defineOperation, jsonBodyErrors, type Operation } from './operation.ts';

const tag = 'Brand kits';
/** Any text: a malformed id answers the same 404 brand_kit_not_found as a foreign or missing one. */
const BrandKitPath = z.strictObject({ brand_kit_id: z.string().meta({ description: 'kit_ followed by 32 lowercase hex characters' }) });

const BrandAssetPath = z.strictObject({
  brand_kit_id: BrandKitPath.shape.brand_kit_id,
  asset_id: z.string().meta({ description: 'asset_ followed by 32 lowercase hex characters' }),
});
/** The contract's limits: asset files are at most 10 MiB. */
const maxBrandAssetBytes = 10 * 1024 * 1024;
const brandAssetBody = { mediaTypes: brandAssetMediaTypes, maxBytes: maxBrandAssetBytes, tooLargeCode: 'brand_asset_too_large' } as const;
const brandAssetRules =
  'The body is the file itself: Content-Type image/png, image/jpeg or image/webp (a logo) or font/woff2 (a font); other ' +
  'types 415 brand_asset_type_unsupported (also WOFF 1, TTF or OTF bytes sent as font/woff2); font bytes declared as an ' +
  'image or image bytes declared as a font 422 brand_asset_kind_mismatch. Logos follow the image rules: animations 422 ' +
  'brand_image_animated, more than 7680 wide or 4320 high as displayed 422 brand_image_dimensions_invalid, more than 32 ' +
  'million pixels or 64 MiB decoded 422 brand_image_pixels_exceeded, bytes of another image type or damaged 422 ' +
  'brand_asset_invalid. Fonts pass the OpenType Sanitizer (422 brand_font_tables_invalid otherwise; also a font naming ' +
  'no family) and hold at most 20,000 glyphs (422 brand_font_glyphs_exceeded). More than 10 MiB 413 brand_asset_too_large, ' +
  'an empty body 400 invalid_upload. Archived kits cannot change (409 brand_kit_conflict). The account holds at most 100 ' +
  'asset files totalling 100 MiB, replaced ones included (409 brand_asset_account_limit_reached). Rate limit per key: 5 per ' +
  'second, idle burst 25.';
const brandAssetErrors: readonly ErrorCode[] = [
  'invalid_upload',
  'brand_kit_not_found',
  'brand_kit_conflict',
  'brand_asset_too_large',
  'brand_asset_type_unsupported',
  'brand_asset_kind_mismatch',
  'brand_asset_invalid',
  'brand_image_animated',
  'brand_image_dimensions_invalid',
  'brand_image_pixels_exceeded',
  'brand_font_tables_invalid',
  'brand_font_glyphs_exceeded',
  'brand_asset_account_limit_reached',
  'rate_limited',
  'image_asset_unavailable',
];

const valueErrors: readonly ErrorCode[] = ['brand_kit_name_invalid', 'brand_kit_colours_invalid', 'brand_kit_tone_invalid'];

export const createBrandKitOperation = defineOperation({
  operationId: 'createBrandKit',
  method: 'post',
  path: '/v1/brand-kits',
  tag,
  summary: 'Create a brand kit',
  description:
    'Kits per account: 1 on free, pack and starter, 5 on growth, 20 on scale; archived kits count. Over the plan: 409 ' +
    'brand_kit_limit with error.plan_limit {plan, limit}. Colours are stored lowercase in the order given.',
  auth: 'bearer',
  body: { schema: BrandKitWrite, maxBytes: brandKitBodyLimit },
  responses: { 201: { description: 'The new kit', schema: BrandKitDetail } },
  errors: [...jsonBodyErrors, ...valueErrors, 'brand_kit_limit'],
});

export const listBrandKitsOperation = defineOperation({
  operationId: 'listBrandKits',
  method: 'get',
  path: '/v1/brand-kits',
  tag,
  summary: 'List brand kits, newest first (asset metadata omitted)',
  auth: 'bearer',
  query: BrandKitListQuery,
  responses: { 200: { description: 'A page of kits', schema: BrandKitPage } },
  errors: ['invalid_request', 'invalid_cursor'],
});

export const getBrandKitOperation = defineOperation({
  operationId: 'getBrandKit',
  method: 'get',
  path: '/v1/brand-kits/{brand_kit_id}',
  tag,
  summary: 'A brand kit with its current logos and fonts',
  description: 'Archived kits stay readable. Foreign, missing and malformed ids answer the same 404 brand_kit_not_found.',
  auth: 'bearer',
  query: NoQuery,
  params: BrandKitPath,
  responses: { 200: { description: 'The kit', schema: BrandKitDetail } },
  errors: ['brand_kit_not_found'],
});

export const updateBrandKitOperation = defineOperation({
  operationId: 'updateBrandKit',
  method: 'patch',
  path: '/v1/brand-kits/{brand_kit_id}',
  tag,
  summary: 'Change or restore a brand kit',
  description:
    'At least one property (brand_kit_patch_empty). Omitted fields keep their values; tone_guidance null clears it; ' +
    'archived_at null restores an archived kit (recorded in archive_history), and other fields in the same request then ' +
    'apply to the restored kit. Any other change to an archived kit answers 409 brand_kit_conflict. An account above its ' +
    "plan's kit count after a plan change can still change, archive and restore its kits.",
  auth: 'bearer',
  params: BrandKitPath,
  body: { schema: BrandKitPatch, maxBytes: brandKitBodyLimit },
  responses: { 200: { description: 'The kit', schema: BrandKitDetail } },
  errors: [...jsonBodyErrors, ...valueErrors, 'brand_kit_patch_empty', 'brand_kit_not_found', 'brand_kit_conflict'],
});

export const archiveBrandKitOperation = defineOperation({
  operationId: 'archiveBrandKit',
  method: 'delete',
  path: '/v1/brand-kits/{brand_kit_id}',
  tag,
  summary: 'Archive a brand kit (idempotent)',
  description: 'The kit stays readable and still counts against the plan; renders and previews can no longer select it (409 brand_kit_unavailable).',
  auth: 'bearer',
  params: BrandKitPath,
  responses: { 204: { description: 'Archived; no body' } },
  errors: ['brand_kit_not_found'],
});

export const createBrandAssetOperation = defineOperation({
  operationId: 'createBrandAsset',
  method: 'post',
  path: '/v1/brand-kits/{brand_kit_id}/assets',
  tag,
  summary: 'Add a logo or font to a brand kit (raw bytes)',
  description:
    `${brandAssetRules} The new asset is current and comes after the kit's other assets (brand.logos and brand.fonts ` +
    'order; brand.logo is the first current logo). At most 16 current assets per kit (409 brand_asset_limit_reached; ' +
    'replaced assets do not count).',
  auth: 'bearer',
  params: BrandKitPath,
  rawBody: brandAssetBody,
  responses: { 201: { description: 'The stored asset, now selected by the kit', schema: BrandAsset } },
  errors: [...brandAssetErrors, 'brand_asset_limit_reached'],
});

export const replaceBrandAssetOperation = defineOperation({
  operationId: 'replaceBrandAsset',
  method: 'put',
  path: '/v1/brand-kits/{brand_kit_id}/assets/{asset_id}',
  tag,
  summary: 'Replace a current logo or font with a new immutable asset of the same kind',
  description:
    `${brandAssetRules} The new asset takes the old one's place in the kit; the old one stays stored and readable, and ` +
    'renders that captured it keep its bytes. An upload of the other kind answers 422 brand_asset_kind_invalid; an asset ' +
    'already replaced 409 brand_kit_conflict; an asset not of the kit 404 not_found.',
  auth: 'bearer',
  params: BrandAssetPath,
  rawBody: brandAssetBody,
  responses: { 201: { description: 'The new current asset', schema: BrandAsset } },
  errors: [...brandAssetErrors, 'brand_asset_kind_invalid', 'not_found'],
});

export const getBrandAssetOperation = defineOperation({
  operationId: 'getBrandAsset',
  method: 'get',
  path: '/v1/brand-kits/{brand_kit_id}/assets/{asset_id}',
  tag,
  summary: 'The stored bytes of a logo or font of the kit, current or replaced',
  description:
    'The bytes that passed validation, as uploaded (fonts: the original WOFF2), with Cache-Control: private, no-store and ' +
    'X-Content-Type-Options: nosniff. Replaced assets and assets of archived kits stay readable. Foreign, missing and ' +
    'malformed kits answer 404 brand_kit_not_found; an asset not of the kit 404 not_found.',
  auth: 'bearer',
  query: NoQuery,
  params: BrandAssetPath,
  responses: { 200: { description: 'The stored bytes with their media type', mediaTypes: brandAssetMediaTypes } },
  errors: ['brand_kit_not_found', 'not_found', 'image_asset_unavailable'],
});

export const brandKitOperationList: readonly Operation[] = [
  createBrandKitOperation,
  listBrandKitsOperation,
  getBrandKitOperation,
  updateBrandKitOperation,
  archiveBrandKitOperation,
  createBrandAssetOperation,
  replaceBrandAssetOperation,
  getBrandAssetOperation,
];
