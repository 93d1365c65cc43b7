import type { TemplateBuildDraft } from '@svc/contracts';
import type { Prisma, Tx } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import type { TemplateVersionRecord } from '../shared/records.ts';
import { DomainError } from '../shared/errors.ts';
import { schemaColumn } from '../templates/template-fields.ts';
import { type ChatMessageOptions, findChatMessage } from './chat-records.ts';
import { checkPublishable } from '../template-builds/message-rules.ts';

export interface ApplyChatMessageOptions extends ChatMessageOptions {
  save: boolean;
}

/** saved: a new version (201); already: the version saved before (200); recorded: save false (204). */
export type ApplyOutcome = { kind: 'saved' | 'already'; version: TemplateVersionRecord } | { kind: 'recorded' };

/**
 * Applies the chat's current message (the contract's chat apply lifecycle): save true publishes its draft as the
 * template's next version, once (a repeat answers that version); save false records the
 * decision. Either way the chat's current message counts as reviewed. Only the current
 * succeeded message can be applied, and an archived template takes no versions (409).
 */
export async function applyChatMessage(ctx: ServiceContext, options: ApplyChatMessageOptions): Promise<ApplyOutcome> {
  const found = await findChatMessage(ctx, options);
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const { chat, message } = await lockChatMessage(tx, found);
    if (message.decision === 'saved' && message.appliedVersion !== null) {
      const version = await tx.templateVersion.findUniqueOrThrow({ where: { templateId_version: { templateId: options.templateId, version: message.appliedVersion } } });
      return { kind: 'already', version };
    }
    if (message.state !== 'succeeded' || chat.draftMessageId !== message.id) throw new DomainError('operation_conflict');
    if (!options.save) {
      await tx.templateMessage.update({ where: { id: message.id }, data: { decision: 'kept' } });
      await markReviewed(tx, chat.id, now);
      return { kind: 'recorded' };
    }
    const draft = message.draft as TemplateBuildDraft;
    const rows = await tx.$queryRaw<{ latest_version: number; input_mode: 'html' | 'blank' }[]>`
      SELECT latest_version, input_mode::text AS input_mode FROM templates WHERE id = ${options.templateId} AND archived_at IS NULL FOR UPDATE`;
    const template = rows[0];
    if (!template) throw new DomainError('operation_conflict');
    const content = await checkPublishable(ctx.metrics, draft, template.input_mode);
    const number = template.latest_version + 1;
    await tx.template.update({ where: { id: options.templateId }, data: { latestVersion: number } });
    const version = await tx.templateVersion.create({
      data: { templateId: options.templateId, version: number, source: content.source, schema: schemaColumn(content.schema), sizes: [] as Prisma.InputJsonValue, createdAt: now },
    });
    await tx.templateMessage.update({ where: { id: message.id }, data: { decision: 'saved', appliedVersion: number } });
    await markReviewed(tx, chat.id, now);
    return { kind: 'saved', version };
  });
}

/** Discards the chat's current message: the template is unchanged, the decision recorded (repeat: the same). */
export async function discardChatMessage(ctx: ServiceContext, options: ChatMessageOptions): Promise<void> {
  const found = await findChatMessage(ctx, options);
  const now = ctx.clock();
  await ctx.db.$transaction(async (tx) => {
    const { chat, message } = await lockChatMessage(tx, found);
    if (message.state !== 'succeeded' || chat.draftMessageId !== message.id || message.decision === 'saved') throw new DomainError('operation_conflict');
    await tx.templateMessage.update({ where: { id: message.id }, data: { decision: 'discarded' } });
    await markReviewed(tx, chat.id, now);
  });
}

/** Locks the chat (one decision at a time) and reads the chat and the message again under the lock. */
async function lockChatMessage(tx: Tx, found: { chat: { id: string }; message: { id: string } }) {
  await tx.$queryRaw`SELECT id FROM template_builds WHERE id = ${found.chat.id} FOR UPDATE`;
  const chat = await tx.templateBuild.findUniqueOrThrow({ where: { id: found.chat.id } });
  const message = await tx.templateMessage.findUniqueOrThrow({ where: { id: found.message.id } });
  return { chat, message };
}

/** The chat's current message counts as reviewed once a decision on it is recorded. */
async function markReviewed(tx: Tx, chatId: string, now: Date): Promise<void> {
  await tx.templateBuild.update({ where: { id: chatId }, data: { reviewed: true, updatedAt: now } });
}
