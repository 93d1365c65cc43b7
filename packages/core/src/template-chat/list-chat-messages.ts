import type { TemplateBuild, TemplateMessage } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { checkTemplateId } from '../templates/template-fields.ts';
import { maxListedMessages } from '../template-builds/list-build-messages.ts';

export interface ListChatMessagesOptions {
  accountId: string;
  templateId: string;
}

export interface ChatHistory {
  /** The template's chat, null until its first message. */
  chat: TemplateBuild | null;
  /** The newest 100 messages, oldest first. */
  messages: TemplateMessage[];
}

/** A saved template's chat and its messages (the dashboard's chat view); foreign, missing and malformed ids 404 not_found. */
export async function listChatMessages(ctx: ServiceContext, { accountId, templateId }: ListChatMessagesOptions): Promise<ChatHistory> {
  checkTemplateId(templateId);
  const template = await ctx.db.template.findFirst({ where: { id: templateId, accountId }, select: { id: true } });
  if (!template) throw notFound();
  const chat = await ctx.db.templateBuild.findUnique({ where: { templateId } });
  if (!chat) return { chat: null, messages: [] };
  const newest = await ctx.db.templateMessage.findMany({ where: { buildId: chat.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: maxListedMessages });
  return { chat, messages: newest.reverse() };
}
