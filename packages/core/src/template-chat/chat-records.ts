// What chat use-cases hand back, and how a chat message of the account is found.
import { idPattern, templateMessageIdPrefix } from '@svc/contracts';
import type { TemplateBuild, TemplateMessage } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { typicalMessageSeconds } from '../template-builds/get-message-progress.ts';

export interface ChatMessageRecord {
  chat: TemplateBuild;
  message: TemplateMessage;
  /** The median seconds of the service's last 20 succeeded model messages, or null. */
  typicalSeconds: number | null;
}

export interface ChatMessageOptions {
  accountId: string;
  templateId: string;
  messageId: string;
}

const messageIdPattern = idPattern(templateMessageIdPrefix);

/** A message of the template's chat; anything foreign, missing or malformed answers 404 not_found. */
export async function findChatMessage(ctx: ServiceContext, options: ChatMessageOptions): Promise<{ chat: TemplateBuild; message: TemplateMessage }> {
  if (!messageIdPattern.test(options.messageId)) throw notFound();
  // one snapshot: a message that just succeeded is seen with the chat state committed with it
  const [message] = await ctx.db.$transaction(
    [
      ctx.db.templateMessage.findFirst({
        where: { id: options.messageId, accountId: options.accountId, build: { templateId: options.templateId } },
        include: { build: true },
      }),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  if (!message) throw notFound();
  const { build: chat, ...rest } = message;
  return { chat, message: rest };
}

/** A message of any chat of the account (the /v1/ai-image-proposals routes name no template). */
export async function findAnyChatMessage(ctx: ServiceContext, accountId: string, messageId: string): Promise<TemplateMessage> {
  if (!messageIdPattern.test(messageId)) throw notFound();
  const message = await ctx.db.templateMessage.findFirst({ where: { id: messageId, accountId, build: { templateId: { not: null } } } });
  if (!message) throw notFound();
  return message;
}

export async function chatMessageRecord(ctx: ServiceContext, chat: TemplateBuild, message: TemplateMessage): Promise<ChatMessageRecord> {
  return { chat, message, typicalSeconds: await typicalMessageSeconds(ctx) };
}
