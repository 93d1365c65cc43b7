// Saved template operations (the contract's saved template routes).
import { z } from 'zod';
import { NoQuery, publishedAs } from './common.ts';
import type { ErrorCode } from './errors.ts';
import { defineOperation, jsonBodyErrors, type Operation, templateEvaluationErrors } from './operation.ts';
import {
  TemplateAdaptRequest,
  TemplateAdaptResponse,
  templateAdaptBodyLimit,
  TemplateDetail,
  TemplateId,
  TemplateListQuery,
  TemplatePage,
  TemplatePreview,
  TemplatePreviewRequest,
  templatePreviewBodyLimit,
  TemplateRename,
  templateRenameBodyLimit,
  TemplateSummary,
  TemplateVersionDetail,
  TemplateVersionListQuery,
  TemplateVersionPage,
  TemplateVersionWriteRequest,
  TemplateWriteRequest,
  templateWriteBodyLimit,
} from './templates.ts';

const tag = 'Saved templates';
const TemplatePath = z.strictObject({ template_id: TemplateId });
const VersionPath = z.strictObject({
  template_id: TemplateId,
  // the segment is text on the wire; a malformed one names no version (404), so it stays a string check
  version: publishedAs(z.string().regex(/^[1-9]\d{0,9}$/), { type: 'integer', minimum: 1, maximum: 9_999_999_999, description: 'A version number (1 or more)' }),
});


/** Codes of a JSON schema that cannot be accepted (saved-template rules). */
export const templateSchemaErrors = [
  'template_schema_invalid',
  'template_schema_draft_unsupported',
  'template_schema_too_large',
  'template_schema_complexity',
] as const satisfies readonly ErrorCode[];

const versionWriteErrors: readonly ErrorCode[] = [
  ...jsonBodyErrors,
  ...templateSchemaErrors,
  'template_source_limit',
  'template_syntax_error',
  'template_size_canvas_mismatch',
  'template_size_data_overrides_too_large',
  'template_size_duplicate_id',
  'template_size_invalid_dimensions',
  'template_size_invalid_id',
  'template_size_invalid_name',
  'template_sizes_too_large',
  'template_sizes_too_many',
];

export const createTemplateOperation = defineOperation({
  operationId: 'createTemplate',
  method: 'post',
  path: '/v1/templates',
  tag,
  summary: 'Save a template as version 1',
  description:
    'input_mode html (default): the source is an HTML document evaluated as a nunjucks template. input_mode blank: a canvas ' +
    'template declaring <meta name="svc-canvas" content="WIDTHxHEIGHT"> (320..7680 by 200..4320) whose pages are elements ' +
    'with data-svc-page="ID" and an optional data-svc-page-name. <meta name="svc-brand-kit" content="kit_..."> names a ' +
    'default brand kit. Names are trimmed (blank means none); tags are trimmed and unique, case preserved.',
  auth: 'bearer',
  body: { schema: TemplateWriteRequest, maxBytes: templateWriteBodyLimit },
  responses: { 201: { description: 'The new template with version 1', schema: TemplateDetail } },
  errors: versionWriteErrors,
});

export const listTemplatesOperation = defineOperation({
  operationId: 'listTemplates',
  method: 'get',
  path: '/v1/templates',
  tag,
  summary: 'List templates, newest first (source and schema omitted)',
  description: 'q searches names (substring, any case); tag matches one tag exactly. tag_options are the first 100 distinct tags of the account, sorted.',
  auth: 'bearer',
  query: TemplateListQuery,
  responses: { 200: { description: 'A page of templates', schema: TemplatePage } },
  errors: ['invalid_request', 'invalid_cursor'],
});

export const previewTemplateOperation = defineOperation({
  operationId: 'previewTemplate',
  method: 'post',
  path: '/v1/templates/preview',
  tag,
  summary: 'Evaluate a template source with data, without saving, rendering or spending anything',
  description:
    'Returns untrusted customer HTML for an isolated preview (Cache-Control: private, no-store). An optional schema is checked ' +
    'with the saved-template rules and the data validated against it. Rate limit per key: 4 per second, idle burst 20 (shared with adapt).',
  auth: 'bearer_or_session',
  body: { schema: TemplatePreviewRequest, maxBytes: templatePreviewBodyLimit },
  responses: { 200: { description: 'The evaluated HTML', schema: TemplatePreview } },
  errors: [...jsonBodyErrors, ...templateSchemaErrors, ...templateEvaluationErrors, 'template_data_invalid', 'brand_kit_not_found', 'brand_kit_unavailable', 'brand_data_conflict', 'rate_limited', 'overloaded'],
});

export const adaptTemplateOperation = defineOperation({
  operationId: 'adaptTemplate',
  method: 'post',
  path: '/v1/templates/adapt',
  tag,
  summary: 'Adapt a canvas template to other canvas sizes (deterministic, free, saves nothing)',
  description:
    'The canvas is laid out and measured in the service\'s browser, in a sandbox of the calling account (network blocked, ' +
    'script off; the account\'s own asset:// images load). Pages in normal flow (headings, paragraphs, flex, grid) reflow at ' +
    'the new size, zoomed by the largest factor between min(sx, sy) and sqrt(sx * sy) at which no text leaves its page; ' +
    'absolutely positioned elements are moved by their anchors and scaled with legible text (see docs/decisions/adapt.md). ' +
    'Entries carry an adapted source, or error resize_source_unsupported (no valid svc-canvas meta, or the source loads ' +
    'something the sandbox refuses) or resize_no_layout (no canvas page and no positioned element). The same request ' +
    'always answers the same sources. Past the time limit (10 s by default) or above 20,000 elements: 504 resize_timeout. ' +
    'Uses the preview rate limit; a canvas layout also takes one of the account\'s unbilled renders (8 at once, then one every ' +
    '2 s, at most 2,000 a day; 429 rate_limited with Retry-After).',
  auth: 'bearer',
  body: { schema: TemplateAdaptRequest, maxBytes: templateAdaptBodyLimit },
  responses: { 200: { description: 'One entry per requested size, in order', schema: TemplateAdaptResponse } },
  errors: [...jsonBodyErrors, 'template_source_limit', 'rate_limited', 'resize_timeout'],
});

export const getTemplateOperation = defineOperation({
  operationId: 'getTemplate',
  method: 'get',
  path: '/v1/templates/{template_id}',
  tag,
  summary: 'A template with its latest version',
  auth: 'bearer',
  query: NoQuery,
  params: TemplatePath,
  responses: { 200: { description: 'The template', schema: TemplateDetail } },
  errors: ['not_found'],
});

export const updateTemplateOperation = defineOperation({
  operationId: 'updateTemplate',
  method: 'patch',
  path: '/v1/templates/{template_id}',
  tag,
  summary: 'Rename, retag or restore a template',
  description: 'Omitted fields keep their values; name null clears it; tags [] clears them; archived_at null restores an archived template.',
  auth: 'bearer',
  params: TemplatePath,
  body: { schema: TemplateRename, maxBytes: templateRenameBodyLimit },
  responses: { 200: { description: 'The template', schema: TemplateSummary } },
  errors: [...jsonBodyErrors, 'not_found'],
});

export const archiveTemplateOperation = defineOperation({
  operationId: 'archiveTemplate',
  method: 'delete',
  path: '/v1/templates/{template_id}',
  tag,
  summary: 'Archive a template (idempotent)',
  description: 'An archived template stays readable but cannot receive versions or create renders.',
  auth: 'bearer',
  params: TemplatePath,
  responses: { 200: { description: 'The archived template', schema: TemplateSummary } },
  errors: ['not_found'],
});

export const createTemplateVersionOperation = defineOperation({
  operationId: 'createTemplateVersion',
  method: 'post',
  path: '/v1/templates/{template_id}/versions',
  tag,
  summary: 'Publish a new immutable version',
  description: 'Archived templates cannot receive versions (404).',
  auth: 'bearer',
  params: TemplatePath,
  body: { schema: TemplateVersionWriteRequest, maxBytes: templateWriteBodyLimit },
  responses: { 201: { description: 'The new version', schema: TemplateVersionDetail } },
  errors: [...versionWriteErrors, 'not_found'],
});

export const listTemplateVersionsOperation = defineOperation({
  operationId: 'listTemplateVersions',
  method: 'get',
  path: '/v1/templates/{template_id}/versions',
  tag,
  summary: 'Versions of a template, newest first (source and schema omitted)',
  auth: 'bearer',
  params: TemplatePath,
  query: TemplateVersionListQuery,
  responses: { 200: { description: 'A page of versions', schema: TemplateVersionPage } },
  errors: ['invalid_request', 'invalid_cursor', 'not_found'],
});

export const getTemplateVersionOperation = defineOperation({
  operationId: 'getTemplateVersion',
  method: 'get',
  path: '/v1/templates/{template_id}/versions/{version}',
  tag,
  summary: 'One version of a template',
  auth: 'bearer',
  query: NoQuery,
  params: VersionPath,
  responses: { 200: { description: 'The version', schema: TemplateVersionDetail } },
  errors: ['not_found'],
});

export const templateOperationList = [
  createTemplateOperation,
  listTemplatesOperation,
  previewTemplateOperation,
  adaptTemplateOperation,
  getTemplateOperation,
  updateTemplateOperation,
  archiveTemplateOperation,
  createTemplateVersionOperation,
  listTemplateVersionsOperation,
  getTemplateVersionOperation,
] as const satisfies readonly Operation[];
