// Brand kit operations (spec 4.6). Asset routes come with brand assets.
import { z } from 'zod';
import {
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

export const brandKitOperationList: readonly Operation[] = [
  createBrandKitOperation,
  listBrandKitsOperation,
  getBrandKitOperation,
  updateBrandKitOperation,
  archiveBrandKitOperation,
];
