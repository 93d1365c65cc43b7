// AI template chat on saved templates and its image proposals (the contract's AI chat routes).
import { z } from 'zod';
import { NoQuery } from './common.ts';
import type { ErrorCode } from './errors.ts';
import { defineOperation, jsonBodyErrors, type Operation, templateEvaluationErrors } from './operation.ts';
import {
  ChatImageProposal,
  TemplateApplyRequest,
  TemplateBuildDraft,
  templateBuildBodyLimit,
  TemplateChatMessage,
  TemplateChatMessageCreate,
} from './template-builds.ts';
import { TemplateId, TemplateVersionDetail } from './templates.ts';
import { templateSchemaErrors } from './templates-operations.ts';

const tag = 'AI template chat';
const TemplatePath = z.strictObject({ template_id: TemplateId });
const ChatMessagePath = z.strictObject({
  template_id: TemplateId,
  message_id: z.string().meta({ description: 'msg_ followed by 32 lowercase hex characters' }),
});
const ProposalPath = z.strictObject({ message_id: ChatMessagePath.shape.message_id });
const noStore = { 'cache-control': { description: 'private, no-store', schema: { type: 'string' } } };

export const createTemplateChatMessageOperation = defineOperation({
  operationId: 'createTemplateChatMessage',
  method: 'post',
  path: '/v1/templates/{template_id}/messages',
  tag,
  summary: "Send a message to a saved template's AI chat",
  description:
    'Header Idempotency-Key is required (replay 200, another body under the key 409 idempotency_conflict). The first ' +
    'message of a template without a chat starts it from the latest version and requires brand_kit_id (400 on ' +
    'brand_kit_id); a later brand_kit_id becomes the chat kit. One pending message at a time (409 operation_pending). ' +
    'Prices: 50 for the first message of a chat on a blank (canvas) template and for a source image, 25 for a text or ' +
    'HTML message, 0 for a source (no model call). All credits can pay, free monthly ones included; otherwise 402 ' +
    'insufficient_credits, nothing held. A message that needs a model answers 503 provider_unavailable when none is ' +
    'configured. A new message rejects a pending image suggestion that was not applied. The chat keeps its newest 100 ' +
    'messages; older settled ones drop off. Archived templates answer 404 template_not_found. Rate limit per key: one ' +
    'new message per second, idle burst 10 (429 rate_limited; a replay spends nothing).',
  auth: 'bearer',
  idempotencyKey: 'required',
  params: TemplatePath,
  body: { schema: TemplateChatMessageCreate, maxBytes: templateBuildBodyLimit },
  responses: {
    200: { description: 'An earlier request with this Idempotency-Key, replayed', schema: TemplateChatMessage },
    202: { description: 'Accepted', schema: TemplateChatMessage },
  },
  errors: [
    ...jsonBodyErrors,
    ...templateEvaluationErrors,
    ...templateSchemaErrors,
    'template_source_limit',
    'template_not_found',
    'image_asset_invalid',
    'image_asset_type_unsupported',
    'brand_kit_not_found',
    'brand_kit_unavailable',
    'brand_data_conflict',
    'idempotency_conflict',
    'operation_pending',
    'ai_failure_limit_reached',
    'insufficient_credits',
    'provider_unavailable',
    'rate_limited',
  ] satisfies ErrorCode[],
});

export const getTemplateChatMessageOperation = defineOperation({
  operationId: 'getTemplateChatMessage',
  method: 'get',
  path: '/v1/templates/{template_id}/messages/{message_id}',
  tag,
  summary: 'A chat message with its progress; poll until succeeded, failed or cancelled',
  auth: 'bearer',
  query: NoQuery,
  params: ChatMessagePath,
  responses: { 200: { description: 'The chat and the message', schema: TemplateChatMessage } },
  errors: ['not_found'],
});

export const cancelTemplateChatMessageOperation = defineOperation({
  operationId: 'cancelTemplateChatMessage',
  method: 'delete',
  path: '/v1/templates/{template_id}/messages/{message_id}',
  tag,
  summary: 'Cancel a pending chat message (reservation released; settled once its preview exists)',
  description:
    'Before a candidate exists the reservation is released; once the message shows a preview_id its candidate render can be ' +
    'downloaded, so the cancel settles the reservation. A message that already ended answers 409 operation_conflict.',
  auth: 'bearer',
  params: ChatMessagePath,
  responses: { 200: { description: 'The chat and the cancelled message', schema: TemplateChatMessage } },
  errors: ['not_found', 'operation_conflict'],
});

export const getTemplateChatDraftOperation = defineOperation({
  operationId: 'getTemplateChatDraft',
  method: 'get',
  path: '/v1/templates/{template_id}/messages/{message_id}/draft',
  tag,
  summary: 'The draft of a succeeded chat message',
  description: 'Pending, failed and cancelled messages have none (404 template_draft_not_found).',
  auth: 'bearer',
  query: NoQuery,
  params: ChatMessagePath,
  responses: { 200: { description: 'The draft', schema: TemplateBuildDraft, headers: noStore } },
  errors: ['not_found', 'template_draft_not_found'],
});

export const applyTemplateChatMessageOperation = defineOperation({
  operationId: 'applyTemplateChatMessage',
  method: 'post',
  path: '/v1/templates/{template_id}/messages/{message_id}/apply',
  tag,
  summary: "Apply the chat's current message",
  description:
    'save true (the default; an empty body too) saves the draft as the next version (201); applying a message already ' +
    'saved answers 200 with that version. save false records the decision and saves nothing (204). Only the current ' +
    'succeeded message can be applied (409 operation_conflict); an archived template cannot take versions (409).',
  auth: 'bearer',
  params: ChatMessagePath,
  body: { schema: TemplateApplyRequest, maxBytes: 1024, emptyBody: {} },
  responses: {
    200: { description: 'Already saved as this version', schema: TemplateVersionDetail },
    201: { description: 'Saved as the next version', schema: TemplateVersionDetail },
    204: { description: 'Decision recorded; nothing saved' },
  },
  errors: [...jsonBodyErrors, 'not_found', 'operation_conflict', 'generated_template_invalid'],
});

export const discardTemplateChatMessageOperation = defineOperation({
  operationId: 'discardTemplateChatMessage',
  method: 'post',
  path: '/v1/templates/{template_id}/messages/{message_id}/discard',
  tag,
  summary: "Discard the chat's current message; the template is unchanged",
  description: 'Only the current succeeded message, and not one already saved (409 operation_conflict). Repeating answers 204.',
  auth: 'bearer',
  params: ChatMessagePath,
  responses: { 204: { description: 'Decision recorded' } },
  errors: ['not_found', 'operation_conflict'],
});

const proposalRules =
  'The model may suggest one image for a succeeded message: a private prompt, an aspect ratio and the layer it fills. A ' +
  'message with no suggestion answers 404 not_found; a message that has not succeeded 409 operation_conflict. No image ' +
  'is generated and no credits are spent by these routes (generation_id stays null).';

export const getChatImageProposalOperation = defineOperation({
  operationId: 'getChatImageProposal',
  method: 'get',
  path: '/v1/templates/{template_id}/messages/{message_id}/image-proposal',
  tag,
  summary: "A chat message's image suggestion",
  description: proposalRules,
  auth: 'bearer',
  query: NoQuery,
  params: ChatMessagePath,
  responses: { 200: { description: 'The suggestion', schema: ChatImageProposal } },
  errors: ['not_found', 'operation_conflict'],
});

export const rejectChatImageProposalOperation = defineOperation({
  operationId: 'rejectChatImageProposal',
  method: 'delete',
  path: '/v1/templates/{template_id}/messages/{message_id}/image-proposal',
  tag,
  summary: 'Reject a pending image suggestion (an approved one keeps its state)',
  description: proposalRules,
  auth: 'bearer',
  params: ChatMessagePath,
  responses: { 200: { description: 'The suggestion', schema: ChatImageProposal } },
  errors: ['not_found', 'operation_conflict'],
});

export const getImageProposalOperation = defineOperation({
  operationId: 'getImageProposal',
  method: 'get',
  path: '/v1/ai-image-proposals/{message_id}',
  tag,
  summary: 'The image suggestion of an owned chat message',
  description: proposalRules,
  auth: 'bearer',
  query: NoQuery,
  params: ProposalPath,
  responses: { 200: { description: 'The suggestion', schema: ChatImageProposal } },
  errors: ['not_found', 'operation_conflict'],
});

export const applyImageProposalOperation = defineOperation({
  operationId: 'applyImageProposal',
  method: 'post',
  path: '/v1/ai-image-proposals/{message_id}/apply',
  tag,
  summary: "Keep the suggestion's layout (restores a rejected one); no image, no credits",
  description: `${proposalRules} After apply the suggestion is approved with applied true.`,
  auth: 'bearer',
  params: ProposalPath,
  responses: { 200: { description: 'The suggestion', schema: ChatImageProposal } },
  errors: ['not_found', 'operation_conflict'],
});

export const templateChatOperationList: readonly Operation[] = [
  createTemplateChatMessageOperation,
  getTemplateChatMessageOperation,
  cancelTemplateChatMessageOperation,
  getTemplateChatDraftOperation,
  applyTemplateChatMessageOperation,
  discardTemplateChatMessageOperation,
  getChatImageProposalOperation,
  rejectChatImageProposalOperation,
  getImageProposalOperation,
  applyImageProposalOperation,
];
