// AI template build operations (the contract's AI build routes).
import { z } from 'zod';
import { NoQuery } from './common.ts';
import type { ErrorCode } from './errors.ts';
import { defineOperation, jsonBodyErrors, type Operation, templateEvaluationErrors } from './operation.ts';
import {
  TemplateBuild,
  TemplateBuildCreate,
  TemplateBuildDraft,
  templateBuildBodyLimit,
  TemplateMessage,
  TemplateMessageCreate,
  TemplateMessageList,
  TemplatePublication,
} from './template-builds.ts';
import { templateSchemaErrors } from './templates-operations.ts';

const tag = 'AI template builds';
/** Any text: a malformed id answers the same 404 as a foreign or missing one. */
const BuildPath = z.strictObject({ build_id: z.string().meta({ description: 'build_ followed by 32 lowercase hex characters' }) });
const MessagePath = z.strictObject({
  build_id: BuildPath.shape.build_id,
  message_id: z.string().meta({ description: 'msg_ followed by 32 lowercase hex characters' }),
});

const noStore = { 'cache-control': { description: 'private, no-store', schema: { type: 'string' } } };

const acceptErrors: readonly ErrorCode[] = [
  ...jsonBodyErrors,
  ...templateEvaluationErrors,
  ...templateSchemaErrors,
  'template_source_limit',
  'image_asset_invalid',
  'image_asset_type_unsupported',
  'brand_data_conflict',
  'idempotency_conflict',
  'operation_pending',
  'ai_failure_limit_reached',
  'provider_unavailable',
];

const acceptRules =
  'Header Idempotency-Key is required (1 to 255 printable ASCII characters): the same key and body replays the message ' +
  '(200), the same key with another body answers 409 idempotency_conflict. A source input is checked now (the saved-template ' +
  'checks, then evaluation with sample_data and the kit as brand) and becomes the draft without a model call at 0 credits. ' +
  'Any other input needs the AI provider (503 provider_unavailable when none is configured, before anything is reserved). ' +
  'An image input is checked before any model call (still PNG, JPEG or WebP, 10 MiB, 7680 by 4320, 32 million pixels: 400 ' +
  'image_asset_invalid or image_asset_type_unsupported on input.base64). Credits are reserved when the message is accepted, ' +
  'settled when it succeeds (or is cancelled once its preview_id is set) and released when it fails or is cancelled before. On build routes free monthly credits cannot pay: ' +
  '402 ai_needs_paid_credits, nothing held, when trial, pack, subscription credits and overage cannot cover the price. ' +
  'After five failed messages in a row a build answers 409 ai_failure_limit_reached for model work (a source message still works). ' +
  'An AI message often takes a minute or two: poll the build or its messages.';

export const createTemplateBuildOperation = defineOperation({
  operationId: 'createTemplateBuild',
  method: 'post',
  path: '/v1/template-builds',
  tag,
  summary: 'Start an AI template build from words, HTML, a source image or your own source',
  description: `${acceptRules} Price: 50 credits from words, HTML or an image; 0 from a source. brand_kit_id is required (404 brand_kit_not_found, 409 brand_kit_unavailable when archived).`,
  auth: 'bearer',
  idempotencyKey: 'required',
  body: { schema: TemplateBuildCreate, maxBytes: templateBuildBodyLimit },
  responses: {
    200: { description: 'An earlier request with this Idempotency-Key, replayed', schema: TemplateBuild },
    202: { description: 'Accepted: the first message is queued (a source message has already succeeded)', schema: TemplateBuild },
  },
  errors: [...acceptErrors, 'ai_needs_paid_credits', 'brand_kit_not_found', 'brand_kit_unavailable'],
});

export const getTemplateBuildOperation = defineOperation({
  operationId: 'getTemplateBuild',
  method: 'get',
  path: '/v1/template-builds/{build_id}',
  tag,
  summary: 'A build with its newest message',
  auth: 'bearer',
  query: NoQuery,
  params: BuildPath,
  responses: { 200: { description: 'The build', schema: TemplateBuild } },
  errors: ['template_build_not_found'],
});

export const listTemplateBuildMessagesOperation = defineOperation({
  operationId: 'listTemplateBuildMessages',
  method: 'get',
  path: '/v1/template-builds/{build_id}/messages',
  tag,
  summary: "The build's newest 100 messages in chat order (oldest first)",
  auth: 'bearer',
  query: NoQuery,
  params: BuildPath,
  responses: { 200: { description: 'The messages', schema: TemplateMessageList } },
  errors: ['template_build_not_found'],
});

export const createTemplateBuildMessageOperation = defineOperation({
  operationId: 'createTemplateBuildMessage',
  method: 'post',
  path: '/v1/template-builds/{build_id}/messages',
  tag,
  summary: 'Edit a build: one more message on its current draft',
  description:
    `${acceptRules} Price: 25 credits for a text or HTML edit (an earlier listing said 10; 25 is the price), 50 for a new ` +
    'source image, 0 for a source. One pending message per build (409 operation_pending). The model edits the current draft.',
  auth: 'bearer',
  idempotencyKey: 'required',
  params: BuildPath,
  body: { schema: TemplateMessageCreate, maxBytes: templateBuildBodyLimit },
  responses: {
    200: { description: 'An earlier request with this Idempotency-Key, replayed', schema: TemplateMessage },
    202: { description: 'Accepted', schema: TemplateMessage },
  },
  errors: [...acceptErrors, 'ai_needs_paid_credits', 'template_build_not_found', 'brand_kit_unavailable'],
});

export const getTemplateBuildDraftOperation = defineOperation({
  operationId: 'getTemplateBuildDraft',
  method: 'get',
  path: '/v1/template-builds/{build_id}/draft',
  tag,
  summary: "The build's current draft",
  description: 'No draft exists until the first message succeeds (404 template_draft_not_found). A failed message keeps the previous draft.',
  auth: 'bearer',
  query: NoQuery,
  params: BuildPath,
  responses: { 200: { description: 'The draft', schema: TemplateBuildDraft, headers: noStore } },
  errors: ['template_build_not_found', 'template_draft_not_found'],
});

export const getTemplateBuildMessageDraftOperation = defineOperation({
  operationId: 'getTemplateBuildMessageDraft',
  method: 'get',
  path: '/v1/template-builds/{build_id}/messages/{message_id}/draft',
  tag,
  summary: 'The draft of a succeeded message',
  description: 'No state change, no cost. Pending, failed and cancelled messages have none (404 template_draft_not_found).',
  auth: 'bearer',
  query: NoQuery,
  params: MessagePath,
  responses: { 200: { description: 'The draft', schema: TemplateBuildDraft, headers: noStore } },
  errors: ['template_build_not_found', 'template_draft_not_found'],
});

export const cancelTemplateBuildMessageOperation = defineOperation({
  operationId: 'cancelTemplateBuildMessage',
  method: 'delete',
  path: '/v1/template-builds/{build_id}/messages/{message_id}',
  tag,
  summary: 'Cancel a pending message',
  description:
    'Before a candidate exists the reservation is released. Once the message shows a preview_id its candidate render can be ' +
    'downloaded, so the work was delivered: the cancel settles the reservation. A message that already ended answers 409 operation_conflict.',
  auth: 'bearer',
  params: MessagePath,
  responses: { 200: { description: 'The cancelled message', schema: TemplateMessage } },
  errors: ['template_build_not_found', 'operation_conflict'],
});

export const publishTemplateBuildOperation = defineOperation({
  operationId: 'publishTemplateBuild',
  method: 'post',
  path: '/v1/template-builds/{build_id}/publish',
  tag,
  summary: "Publish the build's current draft as a saved-template version",
  description:
    'The first publication creates a saved template (version 1); later drafts become its next versions. Publishing the ' +
    'same draft again answers 200 with the same version. No draft yet: 404 template_draft_not_found. The published ' +
    'template archived: 409 operation_conflict. The saved-template checks run again: a draft that no longer passes ' +
    'answers 422 generated_template_invalid. No body.',
  auth: 'bearer',
  params: BuildPath,
  responses: {
    200: { description: 'This draft was already published as this version', schema: TemplatePublication },
    201: { description: 'Published as an immutable saved-template version', schema: TemplatePublication },
  },
  errors: ['template_build_not_found', 'template_draft_not_found', 'operation_conflict', 'generated_template_invalid'],
});

export const templateBuildOperationList: readonly Operation[] = [
  createTemplateBuildOperation,
  getTemplateBuildOperation,
  listTemplateBuildMessagesOperation,
  createTemplateBuildMessageOperation,
  getTemplateBuildDraftOperation,
  getTemplateBuildMessageDraftOperation,
  cancelTemplateBuildMessageOperation,
  publishTemplateBuildOperation,
];
