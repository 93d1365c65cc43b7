import type { TemplateBuildDraft, TemplateMessageCreate, TemplateOutputIntent } from '@svc/contracts';
import type { TemplateMessage } from '@svc/db';
import type { Principal } from '../auth/principal.ts';
import { selectBrandValues } from '../templates/brand-values.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { checkIncomingMessage, requireIdempotencyKey, findMessageReplay, type IncomingMessage, messageFingerprint, recordMessage } from './accept-message.ts';
import { findOwnedBuild } from './get-template-build.ts';
import { failureLimit, pendingStates, priceOf } from './message-rules.ts';
import { lockAccountAdmissions } from '../renders/admit-render-job.ts';

export interface CreateBuildMessageOptions {
  principal: Principal;
  buildId: string;
  request: TemplateMessageCreate;
  idempotencyKey: string | null;
}

export interface CreateBuildMessageResult {
  message: TemplateMessage;
  replayed: boolean;
}

/**
 * Edits a build (the contract's AI build routes): one more message on its current draft. One pending message per
 * build (409 operation_pending); after five failed messages in a row model work is refused
 * (409 ai_failure_limit_reached) while a source message still works. The price is 25 for a
 * text or HTML edit, 50 for a source image or when no draft exists yet, 0 for a source.
 */
export async function createBuildMessage(ctx: ServiceContext, options: CreateBuildMessageOptions): Promise<CreateBuildMessageResult> {
  const { principal, request, idempotencyKey } = options;
  const accountId = principal.accountId;
  const build = await findOwnedBuild(ctx, { accountId, buildId: options.buildId });
  const fingerprint = messageFingerprint({ input: request.input, output: request.output ?? null });
  const replay = async (messageId: string) => ({ message: await ctx.db.templateMessage.findUniqueOrThrow({ where: { id: messageId } }), replayed: true });
  const key = requireIdempotencyKey(idempotencyKey);
  const earlier = await findMessageReplay(ctx.db, accountId, build.id, key, fingerprint);
  if (earlier) return replay(earlier);
  const brand = await selectBrandValues(ctx.db, { accountId, requested: build.brandKitId, source: undefined, sourceField: 'brand_kit_id' });
  if (!brand) throw new DomainError('brand_kit_not_found');
  const draft = build.draft as TemplateBuildDraft | null;
  // an edit without an intent keeps the current draft's output
  const output: TemplateOutputIntent | null = request.output ?? draft?.output ?? null;
  const message: IncomingMessage = { input: request.input, output, price: priceOf(request.input, draft !== null), brand, inputMode: build.inputMode ?? 'html' };
  const sourceDraft = await checkIncomingMessage(ctx, principal, message);
  const now = ctx.clock();

  const outcome = await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM template_builds WHERE id = ${build.id} FOR UPDATE`;
    await lockAccountAdmissions(tx, accountId);
    const earlier = await findMessageReplay(tx, accountId, build.id, key, fingerprint);
    if (earlier) return { earlier };
    const recent = await tx.templateMessage.findMany({
      where: { buildId: build.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: failureLimit,
      select: { state: true },
    });
    if (recent.some((row) => (pendingStates as readonly string[]).includes(row.state))) throw new DomainError('operation_pending');
    if (request.input.type !== 'source' && recent.length === failureLimit && recent.every((row) => row.state === 'failed')) {
      throw new DomainError('ai_failure_limit_reached');
    }
    const id = await recordMessage(tx, {
      principal,
      buildId: build.id,
      message,
      sourceDraft,
      maxReviews: ctx.config.ai?.maxReviews ?? 0,
      scope: build.id,
      idempotencyKey: key,
      fingerprint,
      refusal: 'ai_needs_paid_credits',
      now,
      metrics: ctx.metrics,
    });
    await tx.templateBuild.update({ where: { id: build.id }, data: { updatedAt: now } });
    return { id };
  });
  if ('earlier' in outcome && outcome.earlier) return replay(outcome.earlier);
  return { message: await ctx.db.templateMessage.findUniqueOrThrow({ where: { id: outcome.id as string } }), replayed: false };
}
