import { z } from 'zod';
import { idSchema, NoQuery } from './common.ts';
import { defineOperation, jsonBodyErrors, type Operation, templateEvaluationErrors } from './operation.ts';
import { RenderReport } from './render-report.ts';
import { artifactMediaTypes, HistoryQuery, ImageJobSchemas, ImageRequest, PdfJobSchemas, PdfRequest, renderBodyLimit, renderIdPrefixes } from './renders.ts';


const createErrors = [
  ...jsonBodyErrors,
  'insufficient_credits',
  'brand_kit_not_found',
  'brand_kit_unavailable',
  'brand_data_conflict',
  'idempotency_conflict',
  'rate_limited',
  'account_concurrency_limited',
  'key_concurrency_limited',
  'overloaded',
  'template_not_found',
  'template_data_invalid',
  'template_version_changed',
  ...templateEvaluationErrors,
] as const;

/**
 * The five operations of one render kind. Their ids are written out at the call, so a search for
 * one finds it; one type parameter each keeps every id its own literal type.
 */
function renderOperations<
  const K extends 'pdf' | 'image',
  const C extends string,
  const L extends string,
  const G extends string,
  const D extends string,
  const R extends string,
>(
  kind: K,
  ids: { create: C; list: L; get: G; remove: D; report: R },
) {
  const schemas = kind === 'pdf' ? PdfJobSchemas : ImageJobSchemas;
  const tag = kind === 'pdf' ? 'PDF renders' : 'Image renders';
  const IdPath = z.strictObject({ id: idSchema(renderIdPrefixes[kind]) });
  const create = defineOperation({
    operationId: ids.create,
    method: 'post',
    path: `/v1/${kind}`,
    tag,
    summary: kind === 'pdf' ? 'Render a PDF' : 'Render a PNG, JPEG or WebP image',
    description:
      'Admits one render job and reserves one credit. Answers 200 with the terminal job when it finishes within 30 seconds ' +
      '(check status: 200 does not mean success), else 202 with the queued or running job. wait=false answers as soon as the ' +
      'job is durable. A repeated Idempotency-Key with the same logical request replays the same job.',
    auth: 'bearer',
    idempotencyKey: 'optional',
    body: {
      schema: kind === 'pdf' ? PdfRequest : ImageRequest,
      maxBytes: renderBodyLimit,
      // the image shape has none: Redocly's example check misreads ImageOptions' if/then rules
      // (unevaluated properties) and would warn on any image body, valid ones included
      ...(kind === 'pdf' ? { example: { html: '<h1>Hello</h1>' } } : {}),
    },
    responses: {
      200: { description: 'The job reached a terminal state', schema: schemas.job },
      202: { description: 'The job is queued or running', schema: schemas.job },
    },
    errors: createErrors,
  });
  const list = defineOperation({
    operationId: ids.list,
    method: 'get',
    path: `/v1/${kind}`,
    tag,
    summary: 'Render history, newest first',
    description: 'q searches references, template names and file types (case-insensitive). limit outside 1..100 is clamped.',
    auth: 'bearer',
    query: HistoryQuery,
    responses: { 200: { description: 'A page of history', schema: schemas.page } },
    errors: ['invalid_request', 'invalid_cursor'],
  });
  const get = defineOperation({
    operationId: ids.get,
    method: 'get',
    path: `/v1/${kind}/{id}`,
    tag,
    summary: 'A render job, with a freshly signed download link while its file is available',
    auth: 'bearer',
    query: NoQuery,
    params: IdPath,
    responses: { 200: { description: 'The job', schema: schemas.job } },
    errors: ['not_found'],
  });
  const remove = defineOperation({
    operationId: ids.remove,
    method: 'delete',
    path: `/v1/${kind}/{id}`,
    tag,
    summary: 'Delete a render file, or remove a failed or cancelled job from history',
    description:
      'A succeeded job: the file is removed, then artifact.removed_reason becomes deleted; the job stays readable. ' +
      'A failed or cancelled job leaves history but stays readable by id. Repeating is safe. Queued or running jobs answer 409.',
    auth: 'bearer',
    params: IdPath,
    responses: { 200: { description: 'The job after removal', schema: schemas.job } },
    errors: ['not_found', 'job_not_finished'],
  });
  const report = defineOperation({
    operationId: ids.report,
    method: 'get',
    path: `/v1/${kind}/{id}/report`,
    tag,
    summary: 'The render report: problems, fonts, timing and the file of one job',
    description:
      'What the service saw while it rendered the job: problems that may make the output differ from what the document meant ' +
      '(characters no font could draw, blocked or failed resources, script that did not run, clipped or overflowing content), ' +
      'the fonts used, the time of each stage and the file. Written when the job ends, success or failure, and kept as long ' +
      'as the job. A job that has not ended answers 200 with its status (queued or running), empty lists and nulls for the ' +
      'stages and the file. Another account\'s job, an unknown id and an id of the other kind answer 404.',
    auth: 'bearer',
    query: NoQuery,
    params: IdPath,
    responses: { 200: { description: 'The report', schema: RenderReport } },
    errors: ['not_found'],
  });
  return { create, list, get, remove, report };
}

export const pdfOperations = renderOperations('pdf', {
  create: 'createPdf',
  list: 'listPdfs',
  get: 'getPdf',
  remove: 'deletePdf',
  report: 'getPdfReport',
});
export const imageOperations = renderOperations('image', {
  create: 'createImage',
  list: 'listImages',
  get: 'getImage',
  remove: 'deleteImage',
  report: 'getImageReport',
});

export const downloadFileOperation = defineOperation({
  operationId: 'downloadFile',
  method: 'get',
  path: '/v1/downloads/{token}',
  tag: 'Downloads',
  summary: 'Download a rendered file through a signed link',
  description: 'The token is the signed link minted on every read of a job. An expired link answers 403, an invalid one 404.',
  auth: 'none',
  query: NoQuery,
  params: z.strictObject({ token: z.string() }),
  responses: {
    200: {
      description: 'The file, with its own Content-Type (a PDF, PNG, JPEG or WebP as the job made it) and a Content-Disposition filename',
      mediaTypes: artifactMediaTypes,
    },
  },
  errors: ['download_expired', 'not_found'],
});

export const renderOperationList = [
  pdfOperations.create,
  pdfOperations.list,
  pdfOperations.get,
  pdfOperations.remove,
  pdfOperations.report,
  imageOperations.create,
  imageOperations.list,
  imageOperations.get,
  imageOperations.remove,
  imageOperations.report,
  downloadFileOperation,
] as const satisfies readonly Operation[];
