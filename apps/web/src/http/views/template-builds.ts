import type { ChatImageProposal, TemplateBuild, TemplateBuildInput, TemplateChatMessage, TemplateMessage, TemplateOutput } from '@svc/contracts';
import type { BuildWithMessage, ChatMessageRecord, ImageProposalRecord, TemplateMessageRecord } from '@svc/core';

/** TemplateMessage (the contract's AI builds): input_text for words and HTML; repair_code while a repair runs and after a failure. */
export function templateMessageBody(message: TemplateMessageRecord): TemplateMessage {
  const input = message.input as TemplateBuildInput;
  const inputText = input.type === 'prompt' ? input.prompt : input.type === 'html' ? input.html : undefined;
  return {
    id: message.id,
    state: message.state,
    phase: message.phase,
    input_type: input.type,
    credits: message.credits as TemplateMessage['credits'],
    preview_id: message.previewId,
    output: (message.output as TemplateOutput | null) ?? null,
    review_count: message.reviewCount,
    max_reviews: message.maxReviews,
    ...(inputText !== undefined ? { input_text: inputText } : {}),
    ...(message.repairCode ? { repair_code: message.repairCode } : {}),
    failure_category: message.failureCategory as TemplateMessage['failure_category'],
    failure_code: message.failureCode,
  };
}

export function templateBuildBody({ build, message }: BuildWithMessage): TemplateBuild {
  return {
    id: build.id,
    brand_kit_id: build.brandKitId,
    current_draft: build.draft !== null,
    current_message_id: message.id,
    published_template_id: build.publishedTemplateId,
    message: templateMessageBody(message),
  };
}

export const noStoreHeaders = { 'cache-control': 'private, no-store' };

/** TemplateChatMessage: the chat and the message with its progress (elapsed time, stage, typical duration). */
export function templateChatMessageBody({ chat, message, typicalSeconds }: ChatMessageRecord, now: Date): TemplateChatMessage {
  const end = message.finishedAt ?? now;
  return {
    chat: {
      template_id: chat.templateId as string,
      brand_kit_id: chat.brandKitId,
      current_message_id: chat.draftMessageId,
      current_message_reviewed: chat.reviewed,
    },
    message: {
      ...templateMessageBody(message),
      progress: {
        stage: message.phase,
        elapsed_seconds: Math.max(0, Math.floor((end.getTime() - message.createdAt.getTime()) / 1000)),
        typical_seconds: typicalSeconds,
      },
    },
  };
}

export function imageProposalBody(record: ImageProposalRecord): ChatImageProposal {
  return { proposal: record.proposal, state: record.state, generation_id: record.generationId, applied: record.applied };
}
