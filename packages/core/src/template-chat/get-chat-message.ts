import type { TemplateBuildDraft } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { cancelPendingMessage } from '../template-builds/cancel-build-message.ts';
import { type ChatMessageOptions, type ChatMessageRecord, chatMessageRecord, findChatMessage } from './chat-records.ts';

/** A chat message with what progress reads (the contract's AI chat routes): poll until it ends. */
export async function getChatMessage(ctx: ServiceContext, options: ChatMessageOptions): Promise<ChatMessageRecord> {
  const { chat, message } = await findChatMessage(ctx, options);
  return chatMessageRecord(ctx, chat, message);
}

/** Cancels a pending chat message, releasing its reservation (409 once it ended). */
export async function cancelChatMessage(ctx: ServiceContext, options: ChatMessageOptions): Promise<ChatMessageRecord> {
  const { chat } = await findChatMessage(ctx, options);
  const message = await cancelPendingMessage(ctx, chat.id, options.messageId, notFound);
  return chatMessageRecord(ctx, chat, message);
}

/** The draft of a succeeded chat message; others have none (404 template_draft_not_found). */
export async function getChatDraft(ctx: ServiceContext, options: ChatMessageOptions): Promise<TemplateBuildDraft> {
  const { message } = await findChatMessage(ctx, options);
  if (message.state !== 'succeeded' || message.draft === null) throw new DomainError('template_draft_not_found');
  return message.draft as TemplateBuildDraft;
}
