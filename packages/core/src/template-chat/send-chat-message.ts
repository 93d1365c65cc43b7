import { templateBuildIdPrefix, type TemplateBuildDraft, type TemplateChatMessageCreate, type TemplateOutputIntent } from '@svc/contracts';
import type { Prisma } from '@svc/db';
import { type Principal, principalSubject } from '../auth/principal.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import { selectBrandValues } from '../templates/brand-values.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { checkTemplateId } from '../templates/template-fields.ts';
import { checkIncomingMessage, findMessageReplay, type IncomingMessage, messageFingerprint, recordMessage, requireIdempotencyKey } from '../template-builds/accept-message.ts';
import { type ChatMessageRecord, chatMessageRecord } from './chat-records.ts';
import { failureLimit, pendingStates, priceOf, sourceOutput } from '../template-builds/message-rules.ts';
import { lockAccountAdmissions } from '../renders/admit-render-job.ts';

/** A chat keeps its newest 100 messages (the contract's limits); older settled ones drop off. */
export const maxChatMessages = 100;

export interface SendChatMessageOptions {
  principal: Principal;
  templateId: string;
  request: TemplateChatMessageCreate;
  idempotencyKey: string | null;
}

export interface SendChatMessageResult {
  record: ChatMessageRecord;
  replayed: boolean;
}

/**
 * A message to a saved template's chat (the contract's AI chat routes). The first message starts the chat from the
 * latest version and needs brand_kit_id; a later one may switch the chat's kit. All credits
 * pay (402 insufficient_credits); the first message of a blank (canvas) template costs 50.
 * A new message rejects a pending image suggestion that was not applied, and the chat keeps
 * its newest 100 messages. New messages take a token of the ai_chat_message rate limit.
 */
export async function sendChatMessage(ctx: ServiceContext, options: SendChatMessageOptions): Promise<SendChatMessageResult> {
  const { principal, request } = options;
  const accountId = principal.accountId;
  checkTemplateId(options.templateId);
  const template = await ctx.db.template.findFirst({ where: { id: options.templateId, accountId }, include: { chat: true } });
  if (!template) throw new DomainError('not_found');
  const key = requireIdempotencyKey(options.idempotencyKey);
  const scope = `chat:${template.id}`;
  const fingerprint = messageFingerprint({ input: request.input, output: request.output ?? null, brand_kit_id: request.brand_kit_id ?? null });
  const replay = async (messageId: string) => {
    const message = await ctx.db.templateMessage.findUniqueOrThrow({ where: { id: messageId }, include: { build: true } });
    const { build, ...rest } = message;
    return { record: await chatMessageRecord(ctx, build, rest), replayed: true };
  };
  const earlier = await findMessageReplay(ctx.db, accountId, scope, key, fingerprint);
  if (earlier) return replay(earlier);
  // a replay spends no token; a new message does, before any check does work
  await takeRateToken(ctx.db, 'ai_chat_message', principalSubject(principal), ctx.clock());
  if (template.archivedAt !== null) throw new DomainError('template_not_found', { details: [{ field: 'template_id', reason: 'invalid value' }] });
  const chat = template.chat;
  const kitId = request.brand_kit_id ?? chat?.brandKitId;
  if (!kitId) throw new DomainError('invalid_request', { details: [{ field: 'brand_kit_id', reason: 'missing field' }] });
  const brand = await selectBrandValues(ctx.db, { accountId, requested: kitId, source: undefined, sourceField: 'brand_kit_id' });
  if (!brand) throw new DomainError('brand_kit_not_found', { details: [{ field: 'brand_kit_id', reason: 'invalid value' }] });
  const latest = await ctx.db.templateVersion.findUniqueOrThrow({ where: { templateId_version: { templateId: template.id, version: template.latestVersion } } });
  const draft: TemplateBuildDraft = (chat?.draft as TemplateBuildDraft | null) ?? {
    source: latest.source,
    sample_data: {},
    schema: (latest.schema ?? null) as TemplateBuildDraft['schema'],
    output: sourceOutput(null, latest.source),
  };
  const output: TemplateOutputIntent | null = request.output ?? draft.output;
  const firstOfBlank = !chat && template.inputMode === 'blank' && request.input.type !== 'source';
  const message: IncomingMessage = { input: request.input, output, price: firstOfBlank ? 50 : priceOf(request.input, true), brand, inputMode: template.inputMode };
  const sourceDraft = await checkIncomingMessage(ctx, principal, message);
  const now = ctx.clock();

  const outcome = await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM templates WHERE id = ${template.id} FOR UPDATE`;
    await lockAccountAdmissions(tx, accountId);
    const again = await findMessageReplay(tx, accountId, scope, key, fingerprint);
    if (again) return { earlier: again };
    let chatId = (await tx.templateBuild.findUnique({ where: { templateId: template.id }, select: { id: true } }))?.id;
    if (!chatId) {
      chatId = newId(templateBuildIdPrefix);
      await tx.templateBuild.create({
        data: { id: chatId, accountId, brandKitId: brand.id, templateId: template.id, inputMode: template.inputMode, draft: draft as Prisma.InputJsonValue, createdAt: now, updatedAt: now },
      });
    }
    const recent = await tx.templateMessage.findMany({ where: { buildId: chatId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: failureLimit, select: { state: true } });
    if (recent.some((row) => (pendingStates as readonly string[]).includes(row.state))) throw new DomainError('operation_pending');
    if (request.input.type !== 'source' && recent.length === failureLimit && recent.every((row) => row.state === 'failed')) throw new DomainError('ai_failure_limit_reached');
    // a new message rejects a suggestion still waiting without its layout applied
    await tx.templateMessage.updateMany({ where: { buildId: chatId, imageProposalState: 'pending', imageProposalApplied: false }, data: { imageProposalState: 'rejected' } });
    await tx.templateBuild.update({ where: { id: chatId }, data: { brandKitId: brand.id, updatedAt: now } });
    const id = await recordMessage(tx, {
      principal,
      buildId: chatId,
      message,
      sourceDraft,
      maxReviews: ctx.config.ai?.maxReviews ?? 0,
      scope,
      idempotencyKey: key,
      fingerprint,
      refusal: 'insufficient_credits',
      now,
      metrics: ctx.metrics,
    });
    // the newest 100 stay; older settled ones drop off (a pending one is never among them: one at a time)
    await tx.$executeRaw`
      DELETE FROM template_messages WHERE build_id = ${chatId} AND state IN ('succeeded', 'failed', 'cancelled')
         AND id NOT IN (SELECT id FROM template_messages WHERE build_id = ${chatId} ORDER BY created_at DESC, id DESC LIMIT ${maxChatMessages})`;
    return { id };
  });
  if ('earlier' in outcome && outcome.earlier) return replay(outcome.earlier);
  const message2 = await ctx.db.templateMessage.findUniqueOrThrow({ where: { id: outcome.id as string }, include: { build: true } });
  const { build, ...rest } = message2;
  return { record: await chatMessageRecord(ctx, build, rest), replayed: false };
}
