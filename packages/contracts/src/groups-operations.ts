// Batches, carousels and image packs (the contract's batch, carousel and image pack routes).
import { z } from 'zod';
import { idSchema, NoQuery } from './common.ts';
import type { ErrorCode } from './errors.ts';
import { archiveTokenPattern, Batch, BatchCreate, batchRowAllowance, Carousel, CarouselCreate, groupBodyLimit, groupIdPrefixes, ImagePack, ImagePackCreate } from './groups.ts';
import { defineOperation, jsonBodyErrors, type Operation, templateEvaluationErrors } from './operation.ts';

const tag = 'Batches, carousels, image packs';

const createErrors: readonly ErrorCode[] = [
  ...jsonBodyErrors,
  'insufficient_credits',
  'idempotency_conflict',
  'rate_limited',
  'overloaded',
  'template_not_found',
  'template_data_invalid',
  'template_version_changed',
  'brand_kit_not_found',
  'brand_kit_unavailable',
  'brand_data_conflict',
  'image_asset_reference_invalid',
  ...templateEvaluationErrors,
];
const retryErrors: readonly ErrorCode[] = ['not_found', 'rate_limited', 'account_concurrency_limited', 'key_concurrency_limited', 'insufficient_credits'];

const stateRules =
  'Group state: queued while every member waits (none running or finished); running while any member is still queued, ' +
  'pending or running and at least one runs or has finished; then complete when all succeeded, partial when some ' +
  'succeeded, and failed when none did (a cancelled batch with no succeeded row is cancelled). Pending members (waiting ' +
  'for account or key concurrency) show as queued.';
const memberRules =
  'Every member is a normal render job (pdf_ or image_ id, readable at /v1/pdf/{id} or /v1/image/{id}, listed in history) ' +
  'with its own credit reserved when it is admitted, settled on success and released on failure or cancellation; each ' +
  'member job emits its own render.succeeded, render.failed or render.cancelled webhook event like a single render. ' +
  'Members are admitted as account and key concurrency allow (and at most a few live member jobs per account, 3 by ' +
  'default); the rest wait as pending and are admitted in the background in order as capacity frees. Member jobs run at bulk priority, behind single renders.';
const idempotency =
  'Idempotency-Key is required: the same key and body replays the group (201 with its current state, header ' +
  'idempotent-replayed: true); the same key with another body answers 409 idempotency_conflict.';
const retryRules =
  'Creates a new job for each member whose last attempt failed (batches: or was cancelled) or never reached a job, and ' +
  'admits still-pending members, as concurrency allows (the rest wait as pending). Queued, running and succeeded members are ' +
  'untouched; a succeeded member is never billed again. 429 rate_limited by the render creation rate; 429 ' +
  'account_concurrency_limited or key_concurrency_limited when there is something to retry and no capacity at all.';
const archiveDescription = (what: string) =>
  `Streams a ZIP of the succeeded files in requested order (${what}) plus manifest.json: the kind, id and for each member ` +
  'its position, state, error code and file name (never customer data). No credential: the token is the signed link from ' +
  'archive_url. A genuine expired link answers 403 download_expired; an invalid link, or a group with no file to archive, 404.';

/**
 * The four operations of one group kind. Their ids are written out at the call, so a search for
 * one finds it; one type parameter each keeps every id its own literal type.
 */
function groupOperations<const C extends string, const G extends string, const R extends string, const A extends string, const P extends string>(options: {
  ids: { create: C; get: G; retry: R; archive: A };
  /** The kind in a sentence: batch, carousel, image pack. */
  noun: string;
  path: string;
  prefix: P;
  create: z.ZodType;
  createErrors: readonly ErrorCode[];
  response: z.ZodType;
  summary: string;
  description: string;
  archiveNames: string;
}) {
  const { ids, path, prefix } = options;
  const IdPath = z.strictObject({ id: idSchema(prefix) });
  const create = defineOperation({
    operationId: ids.create,
    method: 'post',
    path,
    tag,
    summary: options.summary,
    description: `${options.description} ${memberRules} ${idempotency} ${stateRules}`,
    auth: 'bearer',
    idempotencyKey: 'required',
    body: { schema: options.create, maxBytes: groupBodyLimit },
    responses: {
      201: {
        description: 'The group (or the replay of an earlier request with the same key and body)',
        schema: options.response,
        headers: { 'idempotent-replayed': { description: 'true when the answer replays an earlier request', schema: { type: 'string', enum: ['true'] } } },
      },
    },
    errors: options.createErrors,
  });
  const get = defineOperation({
    operationId: ids.get,
    method: 'get',
    path: `${path}/{id}`,
    tag,
    summary: `A ${options.noun} with each member's state, download links and archive_url; never starts billed work`,
    auth: 'bearer',
    query: NoQuery,
    params: IdPath,
    responses: { 200: { description: 'The group', schema: options.response } },
    errors: ['not_found'],
  });
  const retry = defineOperation({
    operationId: ids.retry,
    method: 'post',
    path: `${path}/{id}/retry`,
    tag,
    summary: 'Retry failed members and admit pending ones',
    description: retryRules,
    auth: 'bearer',
    params: IdPath,
    responses: { 200: { description: 'The group after the retry', schema: options.response } },
    errors: retryErrors,
  });
  const archive = defineOperation({
    operationId: ids.archive,
    method: 'get',
    path: `${path}/archive/{token}`,
    tag,
    summary: 'Download the ZIP of succeeded files through the signed archive link',
    description: archiveDescription(options.archiveNames),
    auth: 'none',
    query: NoQuery,
    params: z.strictObject({ token: z.string().regex(archiveTokenPattern) }),
    responses: { 200: { description: 'The ZIP archive', contentType: 'application/zip', schema: z.string().meta({ format: 'binary' }) } },
    errors: ['download_expired', 'not_found'],
  });
  return { create, get, retry, archive };
}

const allowance = Object.entries(batchRowAllowance)
  .map(([plan, rows]) => `${plan} ${rows}`)
  .join(', ');

export const batchOperations = groupOperations({
  ids: { create: 'createBatch', get: 'getBatch', retry: 'retryBatch', archive: 'downloadBatchArchive' },
  noun: 'batch',
  path: '/v1/batches',
  prefix: groupIdPrefixes.batch,
  create: BatchCreate,
  createErrors: [...createErrors, 'batch_row_limit'],
  response: Batch,
  summary: 'Render one template version once per data row',
  description:
    `1 to 200 rows; the plan allows ${allowance} (more answers 400 batch_row_limit with error.plan_limit). Every row is ` +
    'validated against the version schema and evaluated before any job exists: one bad row answers 400 with details whose ' +
    'field is rows.N followed by the JSON Pointer (rows.3/customer/name), and nothing is created or charged. PDF rows print ' +
    'on A4, or on the version canvas when it declares svc-canvas; image rows are the canvas size, else 1280x720. ' +
    'quoted_credits is the row count.',
  archiveNames: 'numbered 001.pdf, 002.pdf ...',
});

export const cancelBatchOperation = defineOperation({
  operationId: 'cancelBatch',
  method: 'post',
  path: '/v1/batches/{id}/cancel',
  tag,
  summary: 'Cancel a batch',
  description:
    'Stops rows with no job yet (cancelled), cancels queued jobs (credit released, render.cancelled sent), lets running jobs ' +
    'finish; succeeded files stay downloadable. Cancelled and failed rows cost nothing. Repeating is safe.',
  auth: 'bearer',
  params: z.strictObject({ id: idSchema(groupIdPrefixes.batch) }),
  responses: { 200: { description: 'The batch after the cancel', schema: Batch } },
  errors: ['not_found'],
});

export const carouselOperations = groupOperations({
  ids: { create: 'createCarousel', get: 'getCarousel', retry: 'retryCarousel', archive: 'downloadCarouselArchive' },
  noun: 'carousel',
  path: '/v1/carousels',
  prefix: groupIdPrefixes.carousel,
  create: CarouselCreate,
  createErrors,
  response: Carousel,
  summary: 'Render selected canvas pages of a template version as images',
  description:
    'One image job per page (data-svc-page id) in requested order, one credit each; unknown page ids answer 400 on pages.N. ' +
    'data applies to every page. Member names come from data-svc-page-name (else the page id); each image is the canvas ' +
    'size the version declares with svc-canvas (else 1280x720).',
  archiveNames: 'named 01-cover.png: the position and the page id',
});

export const imagePackOperations = groupOperations({
  ids: { create: 'createImagePack', get: 'getImagePack', retry: 'retryImagePack', archive: 'downloadImagePackArchive' },
  noun: 'image pack',
  path: '/v1/image-packs',
  prefix: groupIdPrefixes.image_pack,
  create: ImagePackCreate,
  createErrors,
  response: ImagePack,
  summary: 'Render one template version at several sizes',
  description:
    'One image job per size: original (the version canvas), a saved size id of the version (its source, with its ' +
    'data_overrides merged over data), a preset slug, or WIDTHxHEIGHT; a size id unknown to the version that is no preset ' +
    'and no WIDTHxHEIGHT answers 400 on sizes.N. Presets and custom sizes are adapted from the version source: a size that ' +
    'cannot be adapted (no svc-canvas meta, or no layout to adapt) fails at once with its code (resize_source_unsupported, ' +
    'resize_no_layout), with no job and no credit, while the other sizes run.',
  archiveNames: 'numbered with the size id: 01-instagram-square.png',
});

export const groupOperationList = [
  batchOperations.create,
  batchOperations.get,
  batchOperations.retry,
  cancelBatchOperation,
  batchOperations.archive,
  carouselOperations.create,
  carouselOperations.get,
  carouselOperations.retry,
  carouselOperations.archive,
  imagePackOperations.create,
  imagePackOperations.get,
  imagePackOperations.retry,
  imagePackOperations.archive,
] as const satisfies readonly Operation[];
