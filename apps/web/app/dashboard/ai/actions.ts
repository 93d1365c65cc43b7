'use server';
// The AI pages' writes and the progress poll, each through its core use-case with the session
// principal: start a build, send a message to a build or a template's chat, publish a build's
// draft, apply or discard a chat's draft, answer an image suggestion, cancel a pending message.
import { BrandKitId, TemplateBuildId, TemplateId, TemplateMessageId } from '@svc/contracts';
import {
  applyChatMessage,
  applyImageProposal,
  cancelBuildMessage,
  cancelChatMessage,
  createBuildMessage,
  createTemplateBuild,
  DomainError,
  discardChatMessage,
  getMessageProgress,
  publishTemplateBuild,
  rejectImageProposal,
  sendChatMessage,
} from '@svc/core';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { formFields, sessionAction } from '../../../src/dashboard/actions.ts';
import { MessageFields, messageInput, outputIntent } from './message-input.ts';

const buildPath = (id: string) => `/dashboard/ai/builds/${id}`;
const chatPath = (id: string) => `/dashboard/ai/chat/${id}`;

async function inputOrThrow(fields: z.output<typeof MessageFields>) {
  const input = await messageInput(fields);
  if ('error' in input) throw new DomainError('invalid_request', { details: [{ field: input.field, reason: input.error }] });
  return input;
}

export const startBuild = sessionAction(MessageFields.extend({ brand_kit_id: BrandKitId }), async (fields, { ctx, principal }) => {
  const input = await inputOrThrow(fields);
  const { build } = await createTemplateBuild(ctx, {
    principal,
    idempotencyKey: fields.idempotency_key,
    request: { brand_kit_id: fields.brand_kit_id, input, output: outputIntent(fields.output) },
  });
  revalidatePath('/dashboard/ai');
  redirect(buildPath(build.build.id));
});

export const sendBuildMessage = sessionAction(MessageFields.extend({ build_id: TemplateBuildId }), async (fields, { ctx, principal }) => {
  const input = await inputOrThrow(fields);
  // "auto" on an edit keeps the current draft's output, as an omitted intent does in the API
  const output = fields.output === 'auto' ? undefined : outputIntent(fields.output);
  await createBuildMessage(ctx, { principal, buildId: fields.build_id, idempotencyKey: fields.idempotency_key, request: { input, ...(output ? { output } : {}) } });
  revalidatePath(buildPath(fields.build_id));
  return null;
});

export const sendChat = sessionAction(MessageFields.extend({ template_id: TemplateId, brand_kit_id: z.preprocess((value) => (value === '' ? undefined : value), BrandKitId.optional()) }), async (fields, { ctx, principal }) => {
  const input = await inputOrThrow(fields);
  const output = fields.output === 'auto' ? undefined : outputIntent(fields.output);
  await sendChatMessage(ctx, {
    principal,
    templateId: fields.template_id,
    idempotencyKey: fields.idempotency_key,
    request: { input, ...(output ? { output } : {}), ...(fields.brand_kit_id ? { brand_kit_id: fields.brand_kit_id } : {}) },
  });
  revalidatePath(chatPath(fields.template_id));
  return null;
});

export const publishBuild = sessionAction(z.object({ build_id: TemplateBuildId }), async ({ build_id }, { ctx, accountId }) => {
  const publication = await publishTemplateBuild(ctx, { accountId, buildId: build_id });
  revalidatePath(buildPath(build_id));
  return publication;
});

const ChatMessage = z.object({ template_id: TemplateId, message_id: TemplateMessageId });

export const applyChat = sessionAction(ChatMessage.extend({ save: formFields.checkbox() }), async ({ template_id, message_id, save }, { ctx, accountId }) => {
  const outcome = await applyChatMessage(ctx, { accountId, templateId: template_id, messageId: message_id, save });
  revalidatePath(chatPath(template_id));
  return outcome.kind === 'recorded' ? { version: null } : { version: outcome.version.version };
});

export const discardChat = sessionAction(ChatMessage, async ({ template_id, message_id }, { ctx, accountId }) => {
  await discardChatMessage(ctx, { accountId, templateId: template_id, messageId: message_id });
  revalidatePath(chatPath(template_id));
  return null;
});

export const answerImageProposal = sessionAction(ChatMessage.extend({ answer: z.enum(['approve', 'reject']) }), async ({ template_id, message_id, answer }, { ctx, accountId }) => {
  const options = { accountId, templateId: template_id, messageId: message_id };
  await (answer === 'approve' ? applyImageProposal(ctx, options) : rejectImageProposal(ctx, options));
  revalidatePath(chatPath(template_id));
  return null;
});

export const cancelMessage = sessionAction(
  z.object({ message_id: TemplateMessageId, build_id: TemplateBuildId.optional(), template_id: TemplateId.optional() }),
  async ({ message_id, build_id, template_id }, { ctx, accountId }) => {
    if (build_id) {
      await cancelBuildMessage(ctx, { accountId, buildId: build_id, messageId: message_id });
      revalidatePath(buildPath(build_id));
    } else if (template_id) {
      await cancelChatMessage(ctx, { accountId, templateId: template_id, messageId: message_id });
      revalidatePath(chatPath(template_id));
    } else {
      throw new DomainError('invalid_request', { details: [{ field: 'build_id', reason: 'missing field' }] });
    }
    return null;
  },
);

export interface ProgressView {
  state: string;
  stage: string;
  elapsedSeconds: number;
  typicalSeconds: number | null;
  reviewCount: number;
  maxReviews: number;
  repairCode: string | null;
}

/** The poll of a running message's progress (about once a second while it runs). */
export const messageProgress = sessionAction(z.object({ message_id: TemplateMessageId }), async ({ message_id }, { ctx, accountId }): Promise<ProgressView> => {
  const { message, elapsedSeconds, typicalSeconds } = await getMessageProgress(ctx, { accountId, messageId: message_id });
  return {
    state: message.state,
    stage: message.phase,
    elapsedSeconds,
    typicalSeconds,
    reviewCount: message.reviewCount,
    maxReviews: message.maxReviews,
    repairCode: message.repairCode,
  };
});
